import { describe, expect, it } from "vitest";
import { artifactCompletion, createRun, ofType, runInput, taskStage } from "./client.ts";
import type { StartService } from "./harness.ts";
import { suiteService } from "./suite-service.ts";

const LEASE_MS = 5000;

/** Idempotency keys, failures, dead letters and requeue: nothing is dropped. */
export function reliabilitySuite(start: StartService): void {
  describe("idempotency, failures and dead letters", () => {
    const service = suiteService(start);

    const run = (maxAttempts = 5) =>
      createRun(
        service,
        runInput([taskStage("draft")], { lease_ms: LEASE_MS, max_attempts: maxAttempts }),
      );

    it("Idempotency-Key: the same key and body answer the first answer again", async () => {
      const { agent, events } = await run();
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      const id = claimed.body.work_item.id;
      const first = await worker.complete(id, artifactCompletion(1), "key-1");
      const second = await worker.complete(id, artifactCompletion(1), "key-1");
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      expect(ofType(await events(), "work_item.completed")).toHaveLength(1);
      expect(ofType(await events(), "artifact.created")).toHaveLength(1);
    });

    it("Idempotency-Key: the same key with another body gets 422", async () => {
      const { agent } = await run();
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      const id = claimed.body.work_item.id;
      await worker.complete(id, artifactCompletion(1, "one"), "key-1");
      const other = await worker.complete(id, artifactCompletion(1, "two"), "key-1");
      expect(other.status).toBe(422);
      expect(other.error?.code).toBe("IDEMPOTENCY_KEY_REUSED");
      const withoutKey = await worker.complete(id, artifactCompletion(1, "one"));
      expect(withoutKey.error?.code).toBe("ALREADY_COMPLETED");
    });

    it("Idempotency-Key on fail: a retried failure counts once", async () => {
      const { agent, events } = await run();
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      const id = claimed.body.work_item.id;
      const first = await worker.fail(id, { attempt: 1, reason: "timeout" }, "fail-1");
      const retry = await worker.fail(id, { attempt: 1, reason: "timeout" }, "fail-1");
      expect(retry.body).toEqual(first.body);
      expect(first.body).toMatchObject({ work_item_id: id, status: "offered", attempts_left: 4 });
      expect(ofType(await events(), "work_item.failed")).toHaveLength(1);
    });

    it("Idempotency-Key on fail: the same key with another body gets 422", async () => {
      const { agent } = await run();
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      const id = claimed.body.work_item.id;
      await worker.fail(id, { attempt: 1, reason: "timeout" }, "fail-1");
      const other = await worker.fail(id, { attempt: 1, reason: "crashed" }, "fail-1");
      expect([other.status, other.error?.code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);
    });

    it("a failed item goes back on offer with the next attempt", async () => {
      const { agent, events } = await run();
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      const id = claimed.body.work_item.id;
      const failed = await worker.fail(id, { attempt: 1, reason: "model refused" });
      expect(failed.status).toBe(200);
      const [offer] = (await worker.poll()).body.offers;
      expect(offer).toMatchObject({ id, attempt: 2 });
      expect(ofType(await events(), "work_item.failed")).toEqual([
        expect.objectContaining({
          work_item_id: id,
          agent_tag: "worker",
          attempt: 1,
          reason: "model refused",
        }),
      ]);
    });

    it("after max_attempts failures or expiries the item is dead-lettered with its history and the run is blocked", async () => {
      const { agent, admin, run: created, events } = await run(2);
      const worker = await agent("worker");
      const first = await worker.claimNext();
      const id = first.body.work_item.id;
      await worker.fail(id, { attempt: 1, reason: "crashed" });
      await worker.claimNext();
      await service.advance(LEASE_MS);
      const letters = await admin.deadLetters(created.run_id);
      expect(letters.status).toBe(200);
      expect(letters.body.dead_letters).toHaveLength(1);
      const [letter] = letters.body.dead_letters;
      expect(letter?.work_item.id).toBe(id);
      expect(
        letter?.attempts.map(({ attempt, agent_tag, outcome, reason }) => ({
          attempt,
          agent_tag,
          outcome,
          reason,
        })),
      ).toEqual([
        { attempt: 1, agent_tag: "worker", outcome: "failed", reason: "crashed" },
        { attempt: 2, agent_tag: "worker", outcome: "expired", reason: undefined },
      ]);
      expect((await admin.getRun(created.run_id)).body.status).toBe("blocked");
      expect((await events()).slice(-3).map((event) => event.type)).toEqual([
        "work_item.lease_expired",
        "work_item.dead_lettered",
        "run.blocked",
      ]);
      expect((await worker.poll()).body.offers).toEqual([]);
      // Nothing is dropped: the stage still counts it and cannot complete without it.
      expect((await admin.getRun(created.run_id)).body.stages[0]).toMatchObject({
        status: "active",
        counts: { total: 1, dead_lettered: 1 },
      });
    });

    it("requeue puts a dead letter back on offer, with attempts numbered on and a fresh budget; the run is active again", async () => {
      const { agent, admin, run: created, events } = await run(1);
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      const id = claimed.body.work_item.id;
      const failed = await worker.fail(id, { attempt: 1, reason: "poison" });
      expect(failed.body).toMatchObject({ status: "dead_lettered", attempts_left: 0 });
      const requeued = await admin.requeue(created.run_id, id);
      expect(requeued.status).toBe(200);
      expect(requeued.body.work_item).toMatchObject({ id, attempt: 2 });
      expect((await events()).slice(-3).map((event) => event.type)).toEqual([
        "work_item.requeued",
        "work_item.offered",
        "run.resumed",
      ]);
      expect((await admin.getRun(created.run_id)).body.status).toBe("active");
      const again = await worker.claimNext();
      expect(again.body.lease.attempt).toBe(2);
      expect((await worker.complete(id, artifactCompletion(2))).status).toBe(200);
      expect((await admin.getRun(created.run_id)).body.status).toBe("completed");
    });

    it("requeue of an item that is not dead-lettered gets 409 NOT_DEAD_LETTERED", async () => {
      const { agent, admin, run: created } = await run();
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      const answer = await admin.requeue(created.run_id, claimed.body.work_item.id);
      expect(answer.status).toBe(409);
      expect(answer.error?.code).toBe("NOT_DEAD_LETTERED");
    });

    it("a dead-lettered item whose last lease expired may still be completed by its holder", async () => {
      const { agent, admin, run: created, events } = await run(1);
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      await service.advance(LEASE_MS);
      expect((await admin.getRun(created.run_id)).body.status).toBe("blocked");
      const done = await worker.complete(claimed.body.work_item.id, artifactCompletion(1));
      expect(done.status).toBe(200);
      expect((await admin.deadLetters(created.run_id)).body.dead_letters).toEqual([]);
      const types = (await events()).map((event) => event.type);
      expect(types.slice(-5)).toEqual([
        "artifact.created",
        "work_item.completed",
        "run.resumed",
        "stage.completed",
        "run.completed",
      ]);
    });
  });
}
