// The race the claim-next line must win (../../src/delivery/claim-waiters.ts): N agents waiting in
// claim-next and N items put on offer, the waits and the offers interleaved, over one or more
// stores on the same database (instances). Every waiter must end with a claim of its own —
// exactly the N items — and none may be left waiting with an item on offer: a lost wake-up shows
// as a wait that never answers (the test's deadline), never as a measured time.
import type { DeliveryStore } from "../../src/delivery/delivery-store.ts";
import { newId } from "../../src/delivery/ids.ts";

/** Longer than any test runs: a waiter answers because it was woken, or not at all. */
const FOREVER_MS = 120_000;

/** How the waits and the offers are interleaved. */
export type RaceOrder = "waiters first" | "offers first" | "interleaved";

/**
 * Runs one race on `stores` (round-robin): `count` waiters, `count` offers (items released by the
 * agent that held them). Resolves with the items the waiters claimed, each once.
 */
export async function claimRace(
  stores: readonly DeliveryStore[],
  count: number,
  order: RaceOrder,
): Promise<{ claimed: string[]; offered: string[] }> {
  const at = (index: number) => stores[index % stores.length] as DeliveryStore;
  const runId = newId("run");
  await at(0).createRun(runId, {
    goal: "g",
    constraints: [],
    lease_ms: 3_600_000,
    stages: [
      {
        id: "s",
        stage_description: "d",
        expected_output: "o",
        available_skills: [],
        items: count,
      },
    ],
  });
  const addAgent = async (tag: string) => {
    const agent = { agent_id: newId("agt"), tag };
    await at(0).addAgent(runId, { ...agent, token_hash: "h" });
    return agent;
  };
  const holder = await addAgent("holder");
  const held: Array<{ id: string; attempt: number }> = [];
  for (let index = 0; index < count; index++) {
    const claim = await at(index).claim(runId, holder, undefined);
    if (claim === undefined) throw new Error("the holder found no item to hold");
    held.push({ id: claim.work_item.id, attempt: claim.lease.attempt });
  }
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
    offers.push(at(index + 1).fail(runId, holder, id, { attempt, reason: "offered again" }));
  };
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
  await Promise.all(offers);
  const claimed = await Promise.all(waits);
  return {
    claimed: claimed.map((id) => id ?? "(nothing)").sort(),
    offered: held.map((item) => item.id).sort(),
  };
}
