// The race the claim-next line must win (../../src/delivery/claim-waiters.ts): N agents waiting in
// claim-next and N items put on offer, the waits and the offers interleaved, over one or more
// stores on the same database (instances). Every waiter must end with a claim of its own —
// exactly the N items — and none may be left waiting with an item on offer: a lost wake-up shows
// as a wait that never answers (the test's deadline), never as a measured time.
import type { DeliveryStore } from "../../src/delivery/delivery-store.ts";
import { newId } from "../../src/delivery/ids.ts";
import type { SqlStoreOptions } from "../../src/sql/sql-store.ts";

/** Longer than any test runs: a waiter answers because it was woken, or not at all. */
const FOREVER_MS = 120_000;

/** How the waits and the offers are interleaved. */
export type RaceOrder = "waiters first" | "offers first" | "interleaved";

/** Every order a race runs in. */
export const raceOrders: RaceOrder[] = ["waiters first", "offers first", "interleaved"];

/** How an SqlStore commits, for the races on SQLite in process. */
export const sqliteCommits: Record<string, SqlStoreOptions> = {
  // As on Node: the operations of one turn of the event loop commit together.
  "group commit": { schedule: (flush) => setImmediate(flush) },
  // As in a Durable Object: each operation commits at once, synchronously.
  "each on its own": {},
};

/**
 * Runs one race on `stores` (round-robin): `count` waiters, `count` offers (items released by the
 * agent that held them), the offers made on `offerStores` (round-robin; default `stores`).
 * Resolves with the items the waiters claimed, each once.
 */
export async function claimRace(
  stores: readonly DeliveryStore[],
  count: number,
  order: RaceOrder,
  offerStores = stores,
): Promise<{ claimed: string[]; offered: string[] }> {
  const at = (index: number) => stores[index % stores.length] as DeliveryStore;
  const offerAt = (index: number) => offerStores[index % offerStores.length] as DeliveryStore;
  const { runId, holder, held, addAgent } = await heldRun(at(0), count);
  const waiters = await Promise.all(
    Array.from({ length: count }, (_, index) => addAgent(`waiter-${index}`)),
  );
  const waits: Promise<string | undefined>[] = [];
  const offers: Promise<unknown>[] = [];
  const wait = (index: number) => {
    const agent = waiters[index] as (typeof waiters)[number];
    waits.push(
      at(index)
        .claimNext(runId, agent, { timeoutMs: FOREVER_MS })
        .then((claim) => claim?.work_item.id),
    );
  };
  const offer = (index: number) => {
    const { id, attempt } = held[index] as (typeof held)[number];
    offers.push(offerAt(index + 1).fail(runId, holder, id, { attempt, reason: "offered again" }));
  };
  interleave(order, count, wait, offer);
  await Promise.all(offers);
  const claimed = await Promise.all(waits);
  return {
    claimed: claimed.map((id) => id ?? "(nothing)").sort(),
    offered: held.map((item) => item.id).sort(),
  };
}

/** A run of one stage of `items` items, all leased by its agent "holder". */
export async function heldRun(store: DeliveryStore, items: number) {
  const runId = newId("run");
  await store.createRun(runId, {
    goal: "g",
    constraints: [],
    lease_ms: 3_600_000,
    stages: [
      { id: "s", stage_description: "d", expected_output: "o", available_skills: [], items },
    ],
  });
  const addAgent = async (tag: string) => {
    const agent = { agent_id: newId("agt"), tag };
    await store.addAgent(runId, { ...agent, token_hash: "h" });
    return agent;
  };
  const holder = await addAgent("holder");
  const held: Array<{ id: string; attempt: number }> = [];
  for (let index = 0; index < items; index++) {
    const claim = await store.claim(runId, holder, undefined);
    if (claim === undefined) throw new Error("the holder found no item to hold");
    held.push({ id: claim.work_item.id, attempt: claim.lease.attempt });
  }
  return { runId, holder, held, addAgent };
}

/** Starts `count` waits and `count` offers (by index) in `order`. */
export function interleave(
  order: RaceOrder,
  count: number,
  wait: (index: number) => void,
  offer: (index: number) => void,
): void {
  for (let index = 0; index < count; index++) {
    if (order === "waiters first") wait(index);
    else if (order === "offers first") offer(index);
    else {
      wait(index);
      offer(index);
    }
  }
  for (let index = 0; index < count; index++) {
    if (order === "waiters first") offer(index);
    else if (order === "offers first") wait(index);
  }
}
