import type { RunView } from "@task-context/contract";
import { describe, expect, it } from "vitest";
import {
  artifactCompletion,
  type Client,
  createRun,
  ofType,
  runInput,
  taskStage,
} from "./client.ts";
import type { StartService } from "./harness.ts";
import { having, only, parsePage, textOf } from "./html.ts";
import { openEventStream } from "./sse.ts";
import { suiteService } from "./suite-service.ts";

const LEASE_MS = 5000;

/** `POST /v1/runs/{run_id}/cancel` as the admin (or another token). */
const cancel = (client: Client, runId: string, body: unknown = {}) =>
  client.post<RunView>(`/v1/runs/${runId}/cancel`, { body });

/** Canceling a run: withdrawn items, refused work, idempotent, never a completed run. */
export function cancelSuite(start: StartService): void {
  describe("cancel a run", () => {
    const service = suiteService(start);

    const run = (items = 2) =>
      createRun(service, runInput([taskStage("draft", { items })], { lease_ms: LEASE_MS }));

    it("cancels a run: status canceled with when and why, one run.canceled event, nothing on offer", async () => {
      const { admin, run: created, agent, events } = await run();
      const worker = await agent("worker");
      await worker.claimNext();
      const canceled = await cancel(admin, created.run_id, { reason: "the brief changed" });
      expect(canceled.status, canceled.text).toBe(200);
      expect(canceled.body).toMatchObject({
        run_id: created.run_id,
        status: "canceled",
        cancel_reason: "the brief changed",
      });
      expect(canceled.body.canceled_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect((await admin.getRun(created.run_id)).body).toEqual(canceled.body);
      const all = await events();
      expect(all.at(-1)).toMatchObject({ type: "run.canceled", reason: "the brief changed" });
      expect(ofType(all, "run.canceled")).toHaveLength(1);
      expect((await worker.poll()).body.offers).toEqual([]);
      const listed = await admin.get<{ runs: { run_id: string; status: string }[] }>("/v1/runs", {
        query: { status: "canceled", limit: 200 },
      });
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.runs).toContainEqual(
        expect.objectContaining({ run_id: created.run_id, status: "canceled" }),
      );
      expect(listed.body.runs.every((listedRun) => listedRun.status === "canceled")).toBe(true);
    });

    it("is idempotent: canceling a canceled run answers the same run, 200, with no new event", async () => {
      const { admin, run: created, events } = await run();
      const first = await cancel(admin, created.run_id);
      expect(first.status, first.text).toBe(200);
      expect(first.body.cancel_reason).toBeUndefined();
      const before = await events();
      expect(before.at(-1)).toEqual(expect.objectContaining({ type: "run.canceled" }));
      expect(before.at(-1)).not.toHaveProperty("reason");
      await service.advance(LEASE_MS);
      const again = await cancel(admin, created.run_id, { reason: "once more" });
      expect([again.status, again.body]).toEqual([200, first.body]);
      expect(await events()).toEqual(before);
    });

    it("refuses every claim, heartbeat, completion and failure afterwards with 409 RUN_CANCELED saying when", async () => {
      const { admin, run: created, agent } = await run();
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      const id = claimed.body.work_item.id;
      const offered = (await worker.poll()).body.offers[0]?.id as string;
      const canceled = await cancel(admin, created.run_id, { reason: "the brief changed" });
      const refusal = {
        code: "RUN_CANCELED",
        error: `Run ${created.run_id} was canceled at ${canceled.body.canceled_at} (reason: the brief changed): its work items are withdrawn and nothing of it is accepted any more. Stop working on it.`,
      };
      const answers = [
        await worker.claimNext(),
        await worker.claim(offered),
        await worker.heartbeat(id, 1),
        await worker.complete(id, artifactCompletion(1)),
        await worker.fail(id, { attempt: 1, reason: "gave up" }),
      ];
      for (const answer of answers) expect([answer.status, answer.body]).toEqual([409, refusal]);
      // A lease that would have expired by now changes nothing: the item is withdrawn.
      await service.advance(LEASE_MS * 2);
      expect((await admin.getRun(created.run_id)).body.status).toBe("canceled");
      expect((await worker.claimNext()).error?.code).toBe("RUN_CANCELED");
    });

    it("refuses to cancel a completed run with 409 RUN_COMPLETED", async () => {
      const { admin, run: created, agent, events } = await run(1);
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      await worker.complete(claimed.body.work_item.id, artifactCompletion(1));
      const before = await events();
      const refused = await cancel(admin, created.run_id, { reason: "too late" });
      expect([refused.status, refused.body]).toEqual([
        409,
        {
          code: "RUN_COMPLETED",
          error: `Run ${created.run_id} is completed: a completed run cannot be canceled. Its artifacts stand; nothing is left to stop.`,
        },
      ]);
      expect((await admin.getRun(created.run_id)).body.status).toBe("completed");
      expect(await events()).toEqual(before);
    });

    it("is the admin's: an agent's token gets 403; a reason over 1000 characters gets 400", async () => {
      const { admin, run: created, agent } = await run();
      const worker = await agent("worker");
      expect((await cancel(worker, created.run_id)).error?.code).toBe("FORBIDDEN");
      const long = await cancel(admin, created.run_id, { reason: "x".repeat(1001) });
      expect([long.status, long.error?.code]).toEqual([400, "INVALID_REQUEST"]);
      expect((await admin.getRun(created.run_id)).body.status).toBe("active");
    });

    it("shows the run page canceled, with when and why, and its script not following", async () => {
      const { admin, run: created } = await run();
      const canceled = await cancel(admin, created.run_id, { reason: "the brief changed" });
      const page = await admin.get(`/runs/${created.run_id}`, { headers: { Accept: "text/html" } });
      expect(page.status).toBe(200);
      const document = parsePage(page.text);
      const status = only(document, having("p", "data-region", "status"), "status line");
      expect(textOf(status)).toBe(
        `Status: canceled at ${canceled.body.canceled_at}: the brief changed — its work items are withdrawn`,
      );
      expect(textOf(only(document, having("p", "id", "live-status"), "live status"))).toBe(
        "The run was canceled.",
      );
      expect(page.text).toContain('data-completed="true"');
    });

    it("ends the event stream after run.canceled, as after run.completed", async () => {
      const { admin, run: created } = await run();
      const stream = await openEventStream(admin, created.run_id, { after: 3 });
      try {
        await cancel(admin, created.run_id);
        const frame = await stream.nextEvent();
        expect([frame.id, frame.event]).toEqual(["4", "run.canceled"]);
        await expect(stream.next()).rejects.toThrow("the stream ended");
      } finally {
        await stream.close();
      }
      const reconnected = await admin.get(`/v1/runs/${created.run_id}/events`, {
        headers: { Accept: "text/event-stream", "Last-Event-ID": "4" },
      });
      expect([reconnected.status, reconnected.text]).toEqual([204, ""]);
    });
  });
}
