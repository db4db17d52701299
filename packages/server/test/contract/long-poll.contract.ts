import { describe, expect, it } from "vitest";
import { artifactCompletion, createRun, runInput, taskStage } from "./client.ts";
import type { Service, StartService } from "./harness.ts";
import { suiteService } from "./suite-service.ts";

const LEASE_MS = 5000;

/** Moves the service's clock a second at a time until `answer` settles (a wait ends). */
async function untilSettled<T>(service: Service, answer: Promise<T>): Promise<T> {
  let settled = false;
  answer.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  for (let step = 0; !settled && step < 1000; step++) {
    await service.advance(1000);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return answer;
}

/**
 * Long polls hold the request until an offer appears. The service looks at the run again only
 * on a new event here (recheck every minute), so an answer within the test's time proves the
 * wake-up; a broken wake-up fails as "blocked" (the test's timeout), never on a measured time.
 */
export function longPollSuite(start: StartService): void {
  describe("long poll", () => {
    const service = suiteService(start, { recheckMs: 60_000 });
    const quick = suiteService(start, { recheckMs: 5 });

    it("poll with wait answers as soon as an offer appears", { timeout: 10_000 }, async () => {
      const { agent } = await createRun(service, runInput([taskStage("draft"), taskStage("edit")]));
      const writer = await agent("writer");
      const editor = await agent("editor");
      const claimed = await writer.claimNext();
      const waiting = editor.poll({ wait: 30 });
      await writer.complete(claimed.body.work_item.id, artifactCompletion(1));
      const answer = await waiting;
      expect(answer.status).toBe(200);
      expect(answer.body.offers.map((offer) => offer.stage_id)).toEqual(["edit"]);
    });

    it("claim-next with wait claims the item as soon as it is offered", {
      timeout: 10_000,
    }, async () => {
      const { agent } = await createRun(service, runInput([taskStage("draft")]));
      const first = await agent("first");
      const second = await agent("second");
      const claimed = await first.claimNext();
      const waiting = second.claimNext({ wait: 30 });
      await first.fail(claimed.body.work_item.id, { attempt: 1, reason: "handing over" });
      const answer = await waiting;
      expect(answer.status).toBe(200);
      expect(answer.body.lease.attempt).toBe(2);
    });

    it("a long poll answers when a lease expires while it waits", { timeout: 10_000 }, async () => {
      const { agent } = await createRun(
        quick,
        runInput([taskStage("draft")], { lease_ms: LEASE_MS }),
      );
      const crashed = await agent("crashed");
      const waiter = await agent("waiter");
      await crashed.claimNext();
      const waiting = waiter.claimNext({ wait: 30 });
      await quick.advance(LEASE_MS);
      const answer = await waiting;
      expect(answer.status).toBe(200);
      expect(answer.body.lease.attempt).toBe(2);
    });

    it("poll answers an empty list, and claim-next 204, when the wait ends", async () => {
      const { agent } = await createRun(
        quick,
        runInput([taskStage("draft")], { lease_ms: 3_600_000 }),
      );
      const holder = await agent("holder");
      const other = await agent("other");
      await holder.claimNext();
      const polled = await untilSettled(quick, other.poll({ wait: 30 }));
      expect(polled.body).toEqual({ offers: [] });
      expect((await untilSettled(quick, other.claimNext({ wait: 30 }))).status).toBe(204);
    });

    it("wait and limit outside their ranges get 400 with the parameter's pointer", async () => {
      const { agent } = await createRun(service, runInput([taskStage("draft")]));
      const worker = await agent("worker");
      const tooLong = await worker.poll({ wait: 31 });
      expect(tooLong.status).toBe(400);
      expect(tooLong.error?.issues?.map((issue) => issue.path)).toEqual(["/wait"]);
      const tooMany = await worker.poll({ limit: 51 });
      expect(tooMany.error?.issues?.map((issue) => issue.path)).toEqual(["/limit"]);
      const none = await worker.poll({ limit: 0 });
      expect(none.error?.issues?.map((issue) => issue.path)).toEqual(["/limit"]);
    });

    it("poll returns at most limit offers, oldest first", async () => {
      const { agent, events } = await createRun(
        service,
        runInput([taskStage("draft", { items: 5 })]),
      );
      const worker = await agent("worker");
      const { offers } = (await worker.poll({ limit: 2 })).body;
      const offered = (await events()).filter((event) => event.type === "work_item.offered");
      expect(offers.map((offer) => offer.id)).toEqual(
        offered
          .slice(0, 2)
          .map((event) => (event.type === "work_item.offered" ? event.work_item_id : "")),
      );
    });
  });
}
