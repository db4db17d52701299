import type { CollaborationEvent } from "@task-context/protocols";
import { describe, expect, it } from "vitest";
import {
  artifactCompletion,
  checkEvent,
  createRun,
  reviewCompletion,
  reviewStage,
  runInput,
  taskStage,
} from "./client.ts";
import type { StartService } from "./harness.ts";
import { openEventStream } from "./sse.ts";
import { suiteService } from "./suite-service.ts";

const LEASE_MS = 5000;

/** Every state change is an event with a gap-free seq; the stream is resumable. */
export function eventsSuite(start: StartService): void {
  describe("events", () => {
    const service = suiteService(start, { recheckMs: 5 });

    it("every state change is an event, with gap-free increasing seq", async () => {
      const { agent, admin, run, events } = await createRun(
        service,
        runInput([taskStage("draft"), reviewStage("review", "draft", ["logic"])], {
          lease_ms: LEASE_MS,
          max_attempts: 2,
        }),
      );
      const writer = await agent("writer");
      const critic = await agent("critic");
      const first = await writer.claimNext();
      const id = first.body.work_item.id;
      await writer.fail(id, { attempt: 1, reason: "crashed" });
      await writer.claimNext();
      await service.advance(LEASE_MS);
      await admin.requeue(run.run_id, id);
      await writer.claimNext();
      await writer.complete(id, artifactCompletion(3));
      const review = await critic.claimNext();
      await critic.complete(review.body.work_item.id, reviewCompletion(1, ["logic"]));
      const all = await events();
      expect(all.map((event) => event.seq)).toEqual(all.map((_, index) => index + 1));
      expect(all.map((event) => event.type)).toEqual([
        "run.created",
        "work_item.offered",
        "work_item.leased",
        "work_item.failed",
        "work_item.offered",
        "work_item.leased",
        "work_item.lease_expired",
        "work_item.dead_lettered",
        "run.blocked",
        "work_item.requeued",
        "work_item.offered",
        "run.resumed",
        "work_item.leased",
        "artifact.created",
        "work_item.completed",
        "stage.completed",
        "work_item.offered",
        "work_item.leased",
        "review.feedback",
        "work_item.completed",
        "stage.completed",
        "run.completed",
      ]);
      expect(new Set(all.map((event) => event.id)).size).toBe(all.length);
      expect(all.every((event) => event.run_id === run.run_id)).toBe(true);
    });

    it("JSON pages: ?after= and ?limit=, with next_after", async () => {
      const { admin, run } = await createRun(service, runInput([taskStage("draft", { items: 3 })]));
      const page = await admin.events(run.run_id, { after: 1, limit: 2 });
      expect(page.status).toBe(200);
      expect(page.body.events.map((event) => event.seq)).toEqual([2, 3]);
      expect(page.body.next_after).toBe(3);
      const rest = await admin.events(run.run_id, { after: page.body.next_after });
      expect(rest.body.events.map((event) => event.seq)).toEqual([4]);
      const end = await admin.events(run.run_id, { after: 4 });
      expect(end.body).toEqual({ events: [], next_after: 4 });
    });

    it("SSE: each frame has id: <seq>, event: <type> and data: <event JSON>", async () => {
      const { admin, run } = await createRun(service, runInput([taskStage("draft")]));
      const stream = await openEventStream(admin, run.run_id);
      try {
        expect(stream.status).toBe(200);
        expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
        for (const [seq, type] of [
          [1, "run.created"],
          [2, "work_item.offered"],
        ] as const) {
          const frame = await stream.nextEvent();
          expect(frame.id).toBe(String(seq));
          expect(frame.event).toBe(type);
          const event = JSON.parse(frame.data ?? "") as CollaborationEvent;
          checkEvent(event);
          expect(event).toMatchObject({ seq, type, run_id: run.run_id });
        }
      } finally {
        await stream.close();
      }
    });

    it("SSE: new events arrive on an open stream", async () => {
      const { admin, run, agent } = await createRun(service, runInput([taskStage("draft")]));
      const worker = await agent("worker");
      const stream = await openEventStream(admin, run.run_id, { after: 2 });
      try {
        await worker.claimNext();
        const frame = await stream.nextEvent();
        expect([frame.id, frame.event]).toEqual(["3", "work_item.leased"]);
      } finally {
        await stream.close();
      }
    });

    it("SSE: resume with Last-Event-ID", async () => {
      const { admin, run, agent } = await createRun(service, runInput([taskStage("draft")]));
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      await worker.complete(claimed.body.work_item.id, artifactCompletion(1));
      const stream = await openEventStream(admin, run.run_id, { lastEventId: "3" });
      try {
        const ids = [];
        for (let index = 0; index < 4; index++) ids.push((await stream.nextEvent()).id);
        expect(ids).toEqual(["4", "5", "6", "7"]);
      } finally {
        await stream.close();
      }
    });

    it("SSE: resume with ?after=, and Last-Event-ID wins over it", async () => {
      const { admin, run } = await createRun(service, runInput([taskStage("draft", { items: 3 })]));
      const byQuery = await openEventStream(admin, run.run_id, { after: 3 });
      try {
        expect((await byQuery.nextEvent()).id).toBe("4");
      } finally {
        await byQuery.close();
      }
      const both = await openEventStream(admin, run.run_id, { after: 1, lastEventId: "2" });
      try {
        expect((await both.nextEvent()).id).toBe("3");
      } finally {
        await both.close();
      }
    });

    it("SSE: a keep-alive comment at least every 15 s when nothing happens", async () => {
      const { admin, run } = await createRun(service, runInput([taskStage("draft")]));
      const stream = await openEventStream(admin, run.run_id, { after: 2 });
      try {
        expect(await stream.next()).toEqual({
          comment: "stream of run events; resume with Last-Event-ID",
          retry: "1000",
        });
        await service.advance(14_999);
        await expect(stream.next(30)).rejects.toThrow(/blocked/);
        await service.advance(1);
        expect(await stream.next()).toEqual({ comment: "keep-alive" });
        await service.advance(15_000);
        expect(await stream.next()).toEqual({ comment: "keep-alive" });
      } finally {
        await stream.close();
      }
    });

    it("SSE: the stream ends after run.completed; a client that saw it gets 204 and stops", async () => {
      const { admin, run, agent } = await createRun(service, runInput([taskStage("draft")]));
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      const stream = await openEventStream(admin, run.run_id, { after: 3 });
      try {
        await worker.complete(claimed.body.work_item.id, artifactCompletion(1));
        const frames = [];
        for (let index = 0; index < 4; index++) frames.push(await stream.nextEvent());
        expect(frames.map((frame) => [frame.id, frame.event])).toEqual([
          ["4", "artifact.created"],
          ["5", "work_item.completed"],
          ["6", "stage.completed"],
          ["7", "run.completed"],
        ]);
        await expect(stream.next()).rejects.toThrow("the stream ended");
      } finally {
        await stream.close();
      }
      // An EventSource reconnects when a stream ends; 204 tells it to stop.
      const reconnected = await admin.get(`/v1/runs/${run.run_id}/events`, {
        headers: { Accept: "text/event-stream", "Last-Event-ID": "7" },
      });
      expect([reconnected.status, reconnected.text]).toEqual([204, ""]);
      // Earlier events of a completed run still stream, up to run.completed.
      const replay = await openEventStream(admin, run.run_id, { lastEventId: "6" });
      try {
        expect((await replay.nextEvent()).event).toBe("run.completed");
        await expect(replay.next()).rejects.toThrow("the stream ended");
      } finally {
        await replay.close();
      }
    });

    it("SSE: a Last-Event-ID that is not a seq gets 400", async () => {
      const { admin, run } = await createRun(service, runInput([taskStage("draft")]));
      const answer = await admin.get(`/v1/runs/${run.run_id}/events`, {
        headers: { Accept: "text/event-stream", "Last-Event-ID": "abc" },
      });
      expect(answer.status).toBe(400);
      expect(answer.error?.code).toBe("INVALID_REQUEST");
    });
  });
}
