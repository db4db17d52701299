// The race a poll waiting for offers (`poll` with `wait`, ../../src/http/wait.ts) must win: N
// agents polling and items put on offer, the polls and the offers interleaved, over one or more
// stores on the same database (instances). Every poll must answer with an offer: a lost wake-up
// shows as a poll that never answers (the test's deadline), never as a measured time.
import type { WorkItem } from "@task-context/protocols";
import type { DeliveryStore } from "../../src/delivery/delivery-store.ts";
import { waitForOffers } from "../../src/http/wait.ts";
import { heldRun, interleave, type RaceOrder } from "./claim-race.ts";

/** Longer than any test runs: a poll answers because it was woken, or not at all. */
const FOREVER_MS = 120_000;

/** `agent`'s poll of the run's offers, waiting for one as long as any test runs. */
export function pollForever(
  store: DeliveryStore,
  runId: string,
  agent: { agent_id: string; tag: string },
): Promise<WorkItem[]> {
  const timing = { recheckMs: FOREVER_MS, clock: () => performance.now() };
  const wait = { limit: 1, waitMs: FOREVER_MS };
  return waitForOffers(store, runId, agent, wait, timing, new AbortController().signal);
}

/**
 * Runs one race on `stores` (round-robin): `count` polls, `count` offers (items released by the
 * agent that held them), the offers made on `offerStores` (round-robin; default `stores`).
 * Resolves with how many polls answered with an offer.
 */
export async function pollRace(
  stores: readonly DeliveryStore[],
  count: number,
  order: RaceOrder,
  offerStores = stores,
): Promise<number> {
  const at = (index: number) => stores[index % stores.length] as DeliveryStore;
  const offerAt = (index: number) => offerStores[index % offerStores.length] as DeliveryStore;
  const { runId, holder, held, addAgent } = await heldRun(at(0), count);
  const agents = await Promise.all(
    Array.from({ length: count }, (_, index) => addAgent(`poller-${index}`)),
  );
  const polls: Promise<WorkItem[]>[] = [];
  const offers: Promise<unknown>[] = [];
  const poll = (index: number) => {
    polls.push(pollForever(at(index), runId, agents[index] as (typeof agents)[number]));
  };
  const offer = (index: number) => {
    const { id, attempt } = held[index] as (typeof held)[number];
    offers.push(offerAt(index + 1).fail(runId, holder, id, { attempt, reason: "offered again" }));
  };
  interleave(order, count, poll, offer);
  await Promise.all(offers);
  const answered = await Promise.all(polls);
  return answered.filter((offered) => offered.length > 0).length;
}
