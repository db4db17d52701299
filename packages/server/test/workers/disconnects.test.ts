import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DurableObjectStore } from "../../src/workers/durable-object-store.ts";
import { createRun, runInput, taskStage } from "../contract/client.ts";
import { EVENTUALLY } from "../contract/harness.ts";
import { openEventStream } from "../contract/sse.ts";
import { workersService } from "./services.ts";

/** A store that records each wait of the router: when it starts and how it ends. */
function watchedStore() {
  const store = new DurableObjectStore(env.RUNS);
  const started: number[] = [];
  const waits: Array<{ changed: boolean; aborted: boolean | undefined }> = [];
  const changed = store.changed.bind(store);
  store.changed = async (runId, after, options) => {
    started.push(after);
    const result = await changed(runId, after, options);
    waits.push({ changed: result, aborted: options.signal?.aborted });
    return result;
  };
  /** The waits of polls for offers (`poll` with `wait`), in the run's object. */
  const offerWaits: Array<{ offers: number; aborted: boolean | undefined }> = [];
  const waitForOffers = store.waitForOffers.bind(store);
  store.waitForOffers = async (runId, agent, wait, options) => {
    started.push(-1);
    const offers = await waitForOffers(runId, agent, wait, options);
    offerWaits.push({ offers: offers.length, aborted: options.signal?.aborted });
    return offers;
  };
  return { store, started, waits, offerWaits };
}

describe("a client that goes away (the object's wait is bounded; the router stops at once)", () => {
  it("a long poll stops waiting when its request's signal aborts", async () => {
    const { store, started, offerWaits } = watchedStore();
    const service = await workersService({ recheckMs: 60_000 }, store);
    const { agent } = await createRun(service, runInput([taskStage("draft")]));
    const worker = await agent("worker");
    await worker.claimNext();
    const controller = new AbortController();
    const polling = service.fetch(worker.url("/v1/inbox/poll", { wait: 30 }), {
      headers: { Authorization: `Bearer ${worker.token}` },
      signal: controller.signal,
    });
    await expect.poll(() => started.length, EVENTUALLY).toBe(1);
    controller.abort();
    const answer = await polling;
    expect(await answer.json()).toEqual({ offers: [] });
    expect(offerWaits).toEqual([{ offers: 0, aborted: true }]);
  });

  it("an event stream's loop ends when its client closes it", async () => {
    const { store, waits } = watchedStore();
    const service = await workersService({ recheckMs: 60_000 }, store);
    const { admin, run } = await createRun(service, runInput([taskStage("draft")]));
    const stream = await openEventStream(admin, run.run_id);
    expect((await stream.nextEvent()).id).toBe("1");
    expect((await stream.nextEvent()).id).toBe("2");
    await stream.close();
    await expect.poll(() => waits.at(-1), EVENTUALLY).toEqual({ changed: false, aborted: true });
  });
});
