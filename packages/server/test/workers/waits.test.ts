import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DurableObjectStore } from "../../src/workers/durable-object-store.ts";
import { createRun, runInput, taskStage } from "../contract/client.ts";
import { EVENTUALLY } from "../contract/harness.ts";
import { workersService } from "./services.ts";

/** The router's store, counting the calls it makes to run objects by method. */
function countedStore() {
  const store = new DurableObjectStore(env.RUNS);
  const calls = new Map<string, number>();
  for (const method of ["claim", "changed", "lastSeq", "offers", "claimNext", "waitForOffers"]) {
    const original = (store as unknown as Record<string, (...args: unknown[]) => unknown>)[method];
    if (original === undefined) continue;
    const bound = original.bind(store);
    (store as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      calls.set(method, (calls.get(method) ?? 0) + 1);
      return bound(...args);
    };
  }
  return { store, calls };
}

/** Whether `answer` has settled (after the calls already under way had their turn). */
async function settled(answer: Promise<unknown>): Promise<boolean> {
  let done = false;
  void answer.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

/** A run on Workers (the router counting its calls) whose one item a holder has claimed. */
async function heldRun() {
  const { store, calls } = countedStore();
  const service = await workersService({ recheckMs: 60_000 }, store);
  const { agent } = await createRun(service, runInput([taskStage("draft")], { max_attempts: 10 }));
  const holder = await agent("holder");
  const claimed = await holder.claimNext();
  return { calls, service, agent, holder, claimed };
}

describe("waits in the run's Durable Object", () => {
  it("an offer wakes one claim-next waiter per item, in the object: one call from the router per long poll", async () => {
    const { calls, agent, holder, claimed } = await heldRun();
    const waiters = await Promise.all(["a", "b", "c"].map((tag) => agent(tag)));
    const waits = waiters.map((waiter) => waiter.claimNext({ wait: 30 }));
    await expect.poll(() => calls.get("claimNext"), EVENTUALLY).toBe(4);
    await holder.fail(claimed.body.work_item.id, { attempt: 1, reason: "handing over" });
    // The oldest waiter claims the item; the others sleep on.
    const first = await (waits[0] as (typeof waits)[0]);
    expect([first.status, first.body.lease.attempt]).toEqual([200, 2]);
    expect([
      await settled(waits[1] as Promise<unknown>),
      await settled(waits[2] as Promise<unknown>),
    ]).toEqual([false, false]);
    await (waiters[0] as (typeof waiters)[0]).fail(first.body.work_item.id, {
      attempt: 2,
      reason: "handing over again",
    });
    const second = await (waits[1] as (typeof waits)[1]);
    expect([second.status, second.body.lease.attempt]).toEqual([200, 3]);
    expect(await settled(waits[2] as Promise<unknown>)).toBe(false);
    // Each long poll was one call to the object; nothing was claimed, read or waited for apart.
    expect(Object.fromEntries(calls)).toEqual({ claimNext: 4 });
    await (waiters[1] as (typeof waiters)[1]).fail(second.body.work_item.id, {
      attempt: 3,
      reason: "to the last waiter",
    });
    expect((await (waits[2] as (typeof waits)[2])).status).toBe(200);
  });

  it("a claim-next whose client went away leaves the object's line: the next offer goes to the waiter still there", async () => {
    const { store, calls } = countedStore();
    const service = await workersService({ recheckMs: 60_000 }, store);
    const { agent } = await createRun(service, runInput([taskStage("draft")]));
    const holder = await agent("holder");
    const claimed = await holder.claimNext();
    const [gone, staying] = await Promise.all([agent("gone"), agent("staying")]);
    const controller = new AbortController();
    const abandoned = service.fetch(gone.url("/v1/inbox/claim-next", { wait: 30 }), {
      method: "POST",
      headers: { Authorization: `Bearer ${gone.token}` },
      signal: controller.signal,
    });
    // In line first: its call to the object goes before the second waiter's (calls keep order).
    await expect.poll(() => calls.get("claimNext"), EVENTUALLY).toBe(2);
    const waiting = staying.claimNext({ wait: 30 });
    await expect.poll(() => calls.get("claimNext"), EVENTUALLY).toBe(3);
    controller.abort();
    expect((await abandoned).status).toBe(204);
    await holder.fail(claimed.body.work_item.id, { attempt: 1, reason: "handing over" });
    const answer = await waiting;
    expect([answer.status, answer.body.lease.attempt]).toEqual([200, 2]);
  });

  it("poll with wait is answered from the object once there are offers for its caller, not on the run's other events", async () => {
    const { calls, agent, holder, claimed } = await heldRun();
    const poller = await agent("poller");
    const polling = poller.poll({ wait: 30 });
    await expect.poll(() => calls.get("waitForOffers"), EVENTUALLY).toBe(1);
    // Events that offer nothing: a heartbeat and another agent.
    expect((await holder.heartbeat(claimed.body.work_item.id, 1)).status).toBe(200);
    await agent("bystander");
    expect(await settled(polling)).toBe(false);
    await holder.fail(claimed.body.work_item.id, { attempt: 1, reason: "handing over" });
    const answer = await polling;
    expect(answer.status).toBe(200);
    expect(answer.body.offers.map((offer) => offer.id)).toEqual([claimed.body.work_item.id]);
    expect(calls.get("changed")).toBeUndefined();
    expect(calls.get("offers")).toBeUndefined();
  });
});
