import { describe, expect, it } from "vitest";
import { artifactCompletion, createRun, ofType, runInput, taskStage } from "./client.ts";
import type { StartService } from "./harness.ts";
import { suiteService } from "./suite-service.ts";

const LEASE_MS = 5000;

/** At-least-once delivery with leases; completion exactly once, fenced by the attempt. */
export function leasesSuite(start: StartService): void {
  describe("leases and fencing", () => {
    const service = suiteService(start);

    const oneItemRun = () =>
      createRun(service, runInput([taskStage("draft")], { lease_ms: LEASE_MS }));

    it("each claim starts a new attempt with a lease of lease_ms", async () => {
      const { agent } = await oneItemRun();
      const worker = await agent("worker");
      const [offer] = (await worker.poll()).body.offers;
      expect(offer?.attempt).toBe(1);
      const claimed = await worker.claim(offer?.id ?? "");
      expect(claimed.status).toBe(200);
      expect(claimed.body.work_item.attempt).toBe(1);
      const now = Date.parse(claimed.body.lease.expires_at) - LEASE_MS;
      expect(claimed.body.lease).toEqual({
        attempt: 1,
        expires_at: new Date(now + LEASE_MS).toISOString(),
      });
      await service.advance(LEASE_MS);
      const again = await worker.claimNext();
      expect(again.body.lease.attempt).toBe(2);
      expect(again.body.work_item.attempt).toBe(2);
    });

    it("claim-next with max_items claims up to that many offers, oldest first, each its own attempt; fewer when fewer are on offer", async () => {
      const { agent, events } = await createRun(
        service,
        runInput([taskStage("draft", { items: 3 })], { lease_ms: LEASE_MS }),
      );
      const first = await agent("first");
      const second = await agent("second");
      const offered = (await first.poll()).body.offers.map((offer) => offer.id);
      expect(offered).toHaveLength(3);

      const two = await first.claimNext({ max_items: 2 });
      expect(two.status).toBe(200);
      const claims = two.body.claims ?? [];
      expect(claims.map((claim) => claim.work_item.id)).toEqual(offered.slice(0, 2));
      expect(claims.map((claim) => [claim.lease.attempt, claim.work_item.attempt])).toEqual([
        [1, 1],
        [1, 1],
      ]);
      expect({ work_item: two.body.work_item, lease: two.body.lease }).toEqual(claims[0]);

      const rest = await second.claimNext({ max_items: 5 });
      expect(rest.body.claims?.map((claim) => claim.work_item.id)).toEqual(offered.slice(2));
      expect((await second.claimNext({ max_items: 5 })).status).toBe(204);
      expect(
        ofType(await events(), "work_item.leased").map((event) => [
          event.work_item_id,
          event.agent_tag,
        ]),
      ).toEqual([
        [offered[0], "first"],
        [offered[1], "first"],
        [offered[2], "second"],
      ]);
    });

    it("items claimed together are fenced and completed exactly once each, like items claimed alone", async () => {
      const { agent, events } = await createRun(
        service,
        runInput([taskStage("draft", { items: 2 })], { lease_ms: LEASE_MS }),
      );
      const slow = await agent("slow");
      const fast = await agent("fast");
      const [kept, taken] = ((await slow.claimNext({ max_items: 2 })).body.claims ?? []).map(
        (claim) => claim.work_item.id,
      );
      await service.advance(LEASE_MS);
      const second = await fast.claim(taken ?? "");
      expect(second.body.lease.attempt).toBe(2);
      const late = await slow.complete(taken ?? "", artifactCompletion(1));
      expect([late.status, late.error?.code]).toEqual([409, "LEASE_LOST"]);
      // Expired, but claimed by nobody since: it may still complete.
      expect((await slow.complete(kept ?? "", artifactCompletion(1))).status).toBe(200);
      expect((await fast.complete(taken ?? "", artifactCompletion(2))).status).toBe(200);
      const completed = ofType(await events(), "work_item.completed");
      expect(completed.map((event) => event.work_item_id).sort()).toEqual([kept, taken].sort());
    });

    it("claim-next answers no claims list without max_items, and refuses max_items outside 1–100", async () => {
      const { agent } = await oneItemRun();
      const worker = await agent("worker");
      for (const max_items of [0, 101]) {
        const refused = await worker.claimNext({ max_items });
        expect([refused.status, refused.error?.code, refused.error?.issues?.[0]?.path]).toEqual([
          400,
          "INVALID_REQUEST",
          "/max_items",
        ]);
      }
      const claimed = await worker.claimNext();
      expect(Object.keys(claimed.body).sort()).toEqual(["lease", "work_item"]);
    });

    it("heartbeat extends the lease of the current attempt", async () => {
      const { agent } = await oneItemRun();
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      const expires = Date.parse(claimed.body.lease.expires_at);
      await service.advance(LEASE_MS - 1);
      const beat = await worker.heartbeat(claimed.body.work_item.id, 1);
      expect(beat.status).toBe(200);
      expect(beat.body).toEqual({ expires_at: new Date(expires - 1 + LEASE_MS).toISOString() });
      await service.advance(LEASE_MS - 1);
      expect((await worker.complete(claimed.body.work_item.id, artifactCompletion(1))).status).toBe(
        200,
      );
    });

    it("fencing: heartbeat, complete and fail of a superseded attempt get 409 LEASE_LOST", async () => {
      const { agent, events } = await oneItemRun();
      const slow = await agent("slow");
      const fast = await agent("fast");
      const first = await slow.claimNext();
      const id = first.body.work_item.id;
      await service.advance(LEASE_MS);
      const second = await fast.claim(id);
      expect(second.body.lease.attempt).toBe(2);
      for (const answer of [
        await slow.heartbeat(id, 1),
        await slow.complete(id, artifactCompletion(1)),
        await slow.fail(id, { attempt: 1, reason: "gave up" }),
      ]) {
        expect([answer.status, answer.error]).toEqual([
          409,
          {
            error: `Attempt 1 of work item ${id} is no longer current (its current attempt is 2, held by another agent). Stop working on it and poll the inbox.`,
            code: "LEASE_LOST",
          },
        ]);
      }
      expect((await fast.complete(id, artifactCompletion(2))).status).toBe(200);
      expect(ofType(await events(), "work_item.completed")).toHaveLength(1);
    });

    it("an expired lease nobody else claimed may still complete the item", async () => {
      const { agent, events } = await oneItemRun();
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      await service.advance(LEASE_MS + 1);
      const done = await worker.complete(claimed.body.work_item.id, artifactCompletion(1));
      expect(done.status).toBe(200);
      const types = (await events()).map((event) => event.type);
      expect(types.slice(-6)).toEqual([
        "work_item.lease_expired",
        "work_item.offered",
        "artifact.created",
        "work_item.completed",
        "stage.completed",
        "run.completed",
      ]);
    });

    it("an expired lease can no longer heartbeat or fail (the expiry was a failed attempt)", async () => {
      const { agent } = await oneItemRun();
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      await service.advance(LEASE_MS);
      expect((await worker.heartbeat(claimed.body.work_item.id, 1)).error).toEqual({
        error: `Attempt 1 of work item ${claimed.body.work_item.id} is no longer current (its lease expired; the item is offered). Stop working on it and poll the inbox.`,
        code: "LEASE_LOST",
      });
      expect(
        (await worker.fail(claimed.body.work_item.id, { attempt: 1, reason: "x" })).error?.code,
      ).toBe("LEASE_LOST");
    });

    it("lease expiry is evaluated when the run is read, with no timer", async () => {
      const { agent, admin, run, events } = await oneItemRun();
      const worker = await agent("worker");
      await worker.claimNext();
      await service.advance(LEASE_MS);
      const view = await admin.getRun(run.run_id);
      expect(view.body.stages[0]?.counts).toMatchObject({ offered: 1, leased: 0 });
      const [expired] = ofType(await events(), "work_item.lease_expired");
      expect(expired).toMatchObject({ agent_tag: "worker", attempt: 1 });
    });

    it("claiming an item another agent holds, or a completed one, gets 409 NOT_ON_OFFER", async () => {
      const { agent } = await oneItemRun();
      const holder = await agent("holder");
      const other = await agent("other");
      const claimed = await holder.claimNext();
      const id = claimed.body.work_item.id;
      expect((await other.claim(id)).error?.code).toBe("NOT_ON_OFFER");
      expect((await holder.claim(id)).error?.code).toBe("NOT_ON_OFFER");
      await holder.complete(id, artifactCompletion(1));
      const late = await other.claim(id);
      expect(late.status).toBe(409);
      expect(late.error?.code).toBe("NOT_ON_OFFER");
    });

    it("a second completion of a completed item gets 409 ALREADY_COMPLETED", async () => {
      const { agent } = await oneItemRun();
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      expect((await worker.complete(claimed.body.work_item.id, artifactCompletion(1))).status).toBe(
        200,
      );
      const again = await worker.complete(claimed.body.work_item.id, artifactCompletion(1));
      expect(again.status).toBe(409);
      expect(again.error?.code).toBe("ALREADY_COMPLETED");
    });

    it("an agent cannot act for another agent: another's lease gets 409 LEASE_LOST", async () => {
      const { agent } = await oneItemRun();
      const holder = await agent("holder");
      const intruder = await agent("intruder");
      const claimed = await holder.claimNext();
      const id = claimed.body.work_item.id;
      expect((await intruder.heartbeat(id, 1)).error).toEqual({
        error: `Attempt 1 of work item ${id} is no longer current (another agent holds it). Stop working on it and poll the inbox.`,
        code: "LEASE_LOST",
      });
      expect((await intruder.complete(id, artifactCompletion(1))).error?.code).toBe("LEASE_LOST");
      expect((await intruder.fail(id, { attempt: 1, reason: "x" })).error?.code).toBe("LEASE_LOST");
      expect((await holder.complete(id, artifactCompletion(1))).status).toBe(200);
    });

    it("claim-next answers 204 when nothing is on offer", async () => {
      const { agent } = await oneItemRun();
      const worker = await agent("worker");
      await worker.claimNext();
      const empty = await worker.claimNext();
      expect(empty.status).toBe(204);
      expect(empty.text).toBe("");
    });

    it("an unknown work item gets 404 WORK_ITEM_NOT_FOUND", async () => {
      const { agent } = await oneItemRun();
      const worker = await agent("worker");
      for (const answer of [
        await worker.claim("wi_unknown"),
        await worker.heartbeat("wi_unknown", 1),
        await worker.complete("wi_unknown", artifactCompletion(1)),
        await worker.fail("wi_unknown", { attempt: 1, reason: "x" }),
      ]) {
        expect(answer.status).toBe(404);
        expect(answer.error?.code).toBe("WORK_ITEM_NOT_FOUND");
      }
    });
  });
}
