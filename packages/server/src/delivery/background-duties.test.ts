// The background duties alone: when a run's next wake-up is due (from its state as each change
// left it, nothing read), what a round does, and the timers of the Node scheduler.
import { afterEach, describe, expect, it, vi } from "vitest";
import { runInput, taskStage } from "../../test/contract/client.ts";
import { MemoryRun } from "../../test/model/memory-run.ts";
import { BackgroundDuties, nextDue, type Scheduler, TimerScheduler } from "./background-duties.ts";
import type { StoredAgent } from "./delivery-store.ts";
import type { RunState } from "./machine/run-state.ts";

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
  const duties = new BackgroundDuties({
    scheduler,
    clock: () => memory.now,
    runState: async () => {
      memory.answer({ type: "expireLeases" });
      return memory.state as RunState;
    },
    ...extra,
  });
  const changed = () => duties.runChanged(memory.runId, memory.state as RunState);
  return { calls, duties, changed };
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
});

describe("TimerScheduler", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("calls back at the time on its clock, once; a new time replaces the old, cancel clears it", () => {
    vi.useFakeTimers();
    const due: string[] = [];
    let now = 1_000;
    const timers = new TimerScheduler(
      () => now,
      (runId) => due.push(runId),
    );
    timers.at("run_a", now + 500);
    timers.at("run_b", now + 100);
    timers.at("run_b", now + 300);
    timers.at("run_c", now - 50);
    timers.cancel("run_c");
    vi.advanceTimersByTime(299);
    expect(due).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(due).toEqual(["run_b"]);
    now += 300;
    vi.advanceTimersByTime(200);
    expect(due).toEqual(["run_b", "run_a"]);
    timers.at("run_a", now + 100);
    timers.close();
    vi.advanceTimersByTime(1_000);
    expect(due).toEqual(["run_b", "run_a"]);
  });
});
