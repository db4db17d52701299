// The background duties alone: when a run's next wake-up is due (from its state as each change
// left it, nothing read) and what a round does, with a recording scheduler and the run's clock
// moved by hand.
import { describe, expect, it } from "vitest";
import { runInput, taskStage } from "../../test/contract/client.ts";
import { MemoryRun } from "../../test/model/memory-run.ts";
import type { StoredAgent } from "../delivery/delivery-store.ts";
import type { RunState } from "../delivery/machine/run-state.ts";
import { BackgroundDuties, nextDue, retryDelay, type Scheduler } from "./background-duties.ts";

const LEASE_MS = 5000;
const worker: StoredAgent = { agent_id: "agt_worker", tag: "worker", token_hash: "h" };
const a2aAgent = (stages: string[]): StoredAgent => ({
  agent_id: "agt_remote",
  tag: "remote",
  token_hash: "h",
  a2a: {
    url: "https://agent.test",
    card: { name: "remote", supportedInterfaces: [], skills: [] },
    stages,
    concurrency: 1,
    service_url: "https://service.test",
  },
});

/** A run of `items` items with a worker, in memory. */
function run(items = 2): MemoryRun {
  const memory = new MemoryRun();
  memory.answer({
    type: "createRun",
    input: runInput([taskStage("draft", { items })], { lease_ms: LEASE_MS }),
  });
  memory.answer({ type: "addAgent", agent: worker });
  return memory;
}

/** A scheduler that records what it is asked. */
function recording() {
  const calls: string[] = [];
  const scheduler: Scheduler = {
    at: (runId, when) => calls.push(`at ${runId} ${when}`),
    cancel: (runId) => calls.push(`cancel ${runId}`),
  };
  return { calls, scheduler };
}

/** Duties over a MemoryRun: its state read with its leases expired, as a store's runState is. */
function dutiesOf(
  memory: MemoryRun,
  extra: Partial<ConstructorParameters<typeof BackgroundDuties>[0]> = {},
) {
  const { calls, scheduler } = recording();
  const errors: unknown[] = [];
  const duties = new BackgroundDuties({
    scheduler,
    clock: () => memory.now,
    onError: (error) => errors.push(error),
    runState: async () => {
      memory.answer({ type: "expireLeases" });
      return memory.state as RunState;
    },
    ...extra,
  });
  const changed = () => duties.runChanged(memory.runId, memory.state as RunState);
  return { calls, duties, changed, errors };
}

describe("the background duties", () => {
  it("wake a run at its earliest lease expiry, once per new time, and not at all when nothing is leased", () => {
    const memory = run();
    const { calls, changed } = dutiesOf(memory);
    changed();
    expect(calls).toEqual(["cancel run_1"]);
    const start = memory.now;
    const first = memory.answer({ type: "claim", agent: worker, workItemId: undefined });
    changed();
    memory.now += 1000;
    memory.answer({ type: "claim", agent: worker, workItemId: undefined });
    changed();
    expect(calls).toEqual(["cancel run_1", `at run_1 ${start + LEASE_MS}`]);
    memory.answer({
      type: "complete",
      agent: worker,
      workItemId: first?.item.id ?? "",
      body: { attempt: 1, artifact: { media_type: "text/plain", content: "done" } },
    });
    changed();
    expect(calls.at(-1)).toBe(`at run_1 ${start + 1000 + LEASE_MS}`);
  });

  it("run a round at the wake-up: the overdue leases expire and the next expiry is set", async () => {
    const memory = run();
    const { calls, duties, changed } = dutiesOf(memory);
    memory.answer({ type: "claim", agent: worker, workItemId: undefined });
    changed();
    memory.now += LEASE_MS;
    await duties.round(memory.runId);
    expect(memory.typesSince(memory.events.length - 2)).toEqual([
      "work_item.lease_expired",
      "work_item.offered",
    ]);
    // The wake-up that rang is gone: nothing leased, none set (the store's change hook would
    // have said so too).
    expect(calls.at(-1)).toBe("cancel run_1");
  });

  it("set a wake-up at once while a run's A2A agent has work in its stages; none during the round", async () => {
    const memory = run(1);
    let during: string[] = [];
    const { calls, duties, changed } = dutiesOf(memory, {
      a2aRound: async () => {
        memory.answer({ type: "claim", agent: a2aAgent(["draft"]), workItemId: undefined });
        changed();
        during = [...calls];
      },
    });
    memory.answer({ type: "addAgent", agent: a2aAgent(["draft"]) });
    changed();
    expect(calls).toEqual([`at run_1 ${memory.now}`]);
    await duties.round(memory.runId);
    // During the round its claim set the lease's expiry, not another round at once.
    expect(during.at(-1)).toBe(`at run_1 ${memory.now + LEASE_MS}`);
    expect(calls.at(-1)).toBe(`at run_1 ${memory.now + LEASE_MS}`);
  });

  it("do not count work outside an A2A agent's stages, nor A2A rounds where the runtime has none", () => {
    const memory = run(1);
    memory.answer({ type: "addAgent", agent: a2aAgent(["review"]) });
    const state = memory.state as RunState;
    expect(nextDue(state, { now: memory.now, a2aRounds: true })).toBeUndefined();
    const other = run(1);
    other.answer({ type: "addAgent", agent: a2aAgent(["draft"]) });
    const ready = other.state as RunState;
    expect(nextDue(ready, { now: other.now, a2aRounds: true })).toBe(other.now);
    expect(nextDue(ready, { now: other.now, a2aRounds: false })).toBeUndefined();
  });

  it("start watching a run's A2A agents once it shows one, and again for another", () => {
    const memory = run(1);
    const watched: string[] = [];
    const { changed } = dutiesOf(memory, { a2aWatch: (runId) => watched.push(runId) });
    changed();
    memory.answer({ type: "addAgent", agent: a2aAgent(["draft"]) });
    changed();
    changed();
    memory.answer({
      type: "addAgent",
      agent: { ...a2aAgent(["draft"]), agent_id: "agt_2", tag: "two" },
    });
    changed();
    expect(watched).toEqual(["run_1", "run_1"]);
  });

  it("never reject a round: a store error is told and the round tried again after 1 s, 2 s …, until one works", async () => {
    const memory = run();
    let broken: Error | undefined = new Error("disk I/O error");
    const { calls, duties, errors, changed } = dutiesOf(memory, {
      runState: async () => {
        if (broken !== undefined) throw broken;
        memory.answer({ type: "expireLeases" });
        return memory.state as RunState;
      },
    });
    memory.answer({ type: "claim", agent: worker, workItemId: undefined });
    changed();
    memory.now += LEASE_MS;
    await duties.round(memory.runId);
    await duties.round(memory.runId);
    expect(errors).toEqual([broken, broken]);
    expect(calls.slice(1)).toEqual([
      `at run_1 ${memory.now + 1000}`,
      `at run_1 ${memory.now + 2000}`,
    ]);
    broken = undefined;
    await duties.round(memory.runId);
    expect(memory.typesSince(memory.events.length - 2)).toEqual([
      "work_item.lease_expired",
      "work_item.offered",
    ]);
    expect(calls.at(-1)).toBe("cancel run_1");
    expect(errors).toHaveLength(2);
  });

  it("tell an A2A round that fails as a whole, and still schedule from the run's state after it", async () => {
    const memory = run(1);
    const failure = new Error("the dispatcher could not be loaded");
    const { calls, duties, errors, changed } = dutiesOf(memory, {
      a2aRound: async () => {
        throw failure;
      },
    });
    memory.answer({ type: "addAgent", agent: a2aAgent(["draft"]) });
    changed();
    memory.now += 10;
    await duties.round(memory.runId);
    expect(errors).toEqual([failure]);
    // The work is still on offer: another round at once.
    expect(calls).toEqual([`at run_1 ${memory.now - 10}`, `at run_1 ${memory.now}`]);
  });

  it("cancel the wake-up of a run that completed, and forget it", () => {
    const memory = run(1);
    const { calls, changed } = dutiesOf(memory);
    const claimed = memory.answer({ type: "claim", agent: worker, workItemId: undefined });
    changed();
    memory.answer({
      type: "complete",
      agent: worker,
      workItemId: claimed?.item.id ?? "",
      body: { attempt: 1, artifact: { media_type: "text/plain", content: "done" } },
    });
    expect(memory.state?.run.status).toBe("completed");
    changed();
    changed();
    // Forgotten: each later change of a completed run cancels again (none is expected).
    expect(calls).toEqual([`at run_1 ${memory.now + LEASE_MS}`, "cancel run_1", "cancel run_1"]);
  });

  it("wait longer after each failed round in a row, at most a minute", () => {
    expect([1, 2, 3, 6, 7, 20].map(retryDelay)).toEqual([1000, 2000, 4000, 32_000, 60_000, 60_000]);
  });
});
