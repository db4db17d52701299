// A2A attempts and their leases, on the Node service's clock, which only the test moves: any
// `working` renews the lease (with a status timestamp or without, streamed or polled); an agent
// that says nothing more is given up before its lease ends, with the reason, and its task is
// canceled; one that says the same `working` again and again is given up as stuck after
// STUCK_LEASES leases. Nothing here waits for time to pass: the test moves the clock and waits
// for what the service did (an event, a lease's new end on the run page).
import { describe, expect, it } from "vitest";
import type { AgentTask, RunningA2aAgent } from "./a2a-agent.ts";
import {
  type A2aService,
  a2aHarness,
  cues,
  events,
  leasedUntil,
  leaseEnd,
  lumenRun,
  ofType,
  settled,
  untilEvent,
  waitFor,
} from "./harness.ts";

const adminToken = "a2a-leases-admin-token-0123456789";
const { service, agent, hostile } = a2aHarness(adminToken, { a2aPollMs: 20 });

const LEASE_MS = 60_000;
/** How long before its end a silent attempt is given up: a quarter of the lease, at most 5 s. */
const MARGIN_MS = 5000;

const oneItem = (maxAttempts: number) =>
  lumenRun({ lease_ms: LEASE_MS, max_attempts: maxAttempts });

/**
 * Waits until the service has seen attempt `attempt`'s task as it is now: polled twice, so the
 * first poll's answer was taken before the second was sent.
 */
async function seen(agent: RunningA2aAgent, attempt: number): Promise<AgentTask> {
  const task = await waitFor(
    `attempt ${attempt}'s task`,
    () => agent.tasks.find((t) => t.attempt === attempt),
    (found) => found !== undefined,
  );
  await waitFor(
    "two polls",
    () => (task as AgentTask).polls(),
    (polls) => polls >= 2,
  );
  return task as AgentTask;
}

/** Moves the clock to just before attempt `attempt`'s silent deadline would pass, then past it. */
async function silentUntilGivenUp({ admin, clock }: A2aService, runId: string, attempt: number) {
  const ends = await leasedUntil(admin, runId, attempt);
  clock.advance(ends - MARGIN_MS - clock.now());
  return untilEvent(admin, runId, "work_item.failed", (event) => event.attempt === attempt);
}

/**
 * Moves the clock by `ms`, lets the agent go on (`then`), and waits until the item's lease ends a
 * whole lease after the new time: the service renewed it.
 */
async function renewedAfter(
  service: A2aService,
  runId: string,
  itemId: string,
  ms: number,
  then: () => void = () => undefined,
): Promise<void> {
  service.clock.advance(ms);
  const now = service.clock.now();
  then();
  await waitFor(
    "the lease to be renewed",
    () => leaseEnd(service, runId, itemId, adminToken),
    (end) => end !== undefined && end >= now + LEASE_MS,
  );
}

describe("an A2A attempt's lease", () => {
  it("is given up with the reason when SendMessage is never answered", async () => {
    const test = await service();
    const { admin } = test;
    const silent = await hostile({ answer: () => new Promise(() => undefined) });
    const run = await admin.createRun(oneItem(1));
    await admin.addAgent(run.run_id, { tag: "silent", a2a: { url: silent.url } });
    await waitFor(
      "the message",
      () => silent.requests.length,
      (count) => count === 1,
    );
    expect((await silentUntilGivenUp(test, run.run_id, 1)).reason).toBe(
      "The A2A agent did not answer SendMessage within the attempt's lease (lease_ms 60000, renewed by each working update; given up 5000 ms before its end).",
    );
  });
});

// The same for an agent that speaks A2A 0.3 (the official SDK's 0.3 layer answering 0.3 only):
// its `working` renews the lease, its silence is given up, its task canceled with tasks/cancel.
describe.each([
  ["A2A 1.0", {}],
  ["A2A 0.3", { a2a03: { transport: "JSONRPC" } }],
] as const)("an A2A attempt's lease, %s", (_version, speaks) => {
  it("is given up with the reason when the task says nothing more, its task canceled, then a dead letter", async () => {
    const test = await service();
    const { admin } = test;
    const mute = await agent({
      name: "Mute",
      skills: [{ id: "copywriting" }],
      ...speaks,
      streaming: false,
      behaviour: (task) => waitFor("a cancel", () => task.canceled(), Boolean).then(() => {}),
    });
    const run = await admin.createRun(oneItem(2));
    await admin.addAgent(run.run_id, { tag: "mute", a2a: { url: mute.url } });
    const reason =
      "The A2A agent did not answer within the attempt's lease (lease_ms 60000, renewed by each working update; given up 5000 ms before its end): its task was last submitted. The service gave the attempt up and asked the agent to cancel the task.";
    for (const attempt of [1, 2]) {
      await seen(mute, attempt);
      expect((await silentUntilGivenUp(test, run.run_id, attempt)).reason).toBe(reason);
    }
    expect((await settled(admin, run.run_id)).status).toBe("blocked");
    const [letter] = (await admin.listDeadLetters(run.run_id)).dead_letters;
    expect(letter?.attempts.map((attempt) => [attempt.attempt, attempt.outcome])).toEqual([
      [1, "failed"],
      [2, "failed"],
    ]);
    expect(ofType(await events(admin, run.run_id), "work_item.lease_expired")).toEqual([]);
    await waitFor("both tasks canceled", () => mute.tasks.every((t) => t.canceled()), Boolean);
  });

  it.each([
    ["streaming", true, true],
    ["streaming, without status timestamps", true, false],
    ["tasks/get", false, true],
    ["tasks/get, without status timestamps", false, false],
  ])(
    "is renewed by each `working` (%s): the agent works four half-leases and completes its attempt",
    async (_name, streaming, timestamp) => {
      const test = await service();
      const { admin } = test;
      const cue = cues();
      const busy = await agent({
        name: "Busy",
        skills: [{ id: "copywriting" }],
        ...speaks,
        ...speaks,
        streaming,
        behaviour: async (task) => {
          task.working({ timestamp });
          for (let step = 0; step < 4; step++) {
            await cue.wait();
            task.working({ timestamp });
          }
          await cue.wait();
          task.complete();
        },
      });
      const run = await admin.createRun(oneItem(1));
      await admin.addAgent(run.run_id, { tag: "busy", a2a: { url: busy.url } });
      const [task] = await waitFor(
        "the task",
        () => busy.tasks,
        (tasks) => tasks.length === 1,
      );
      const itemId = (task as AgentTask).item.id;
      // Two leases pass in all: without the renewals the lease would have expired.
      for (let step = 0; step < 4; step++) {
        await renewedAfter(test, run.run_id, itemId, LEASE_MS / 2, cue.open);
      }
      cue.open();
      expect((await settled(admin, run.run_id)).status).toBe("completed");
      const all = await events(admin, run.run_id);
      expect(ofType(all, "work_item.completed").map((event) => event.attempt)).toEqual([1]);
      expect(ofType(all, "work_item.failed")).toEqual([]);
      expect(ofType(all, "work_item.lease_expired")).toEqual([]);
    },
  );

  it("is given up as stuck when a polled task says the same `working` for five leases", async () => {
    const test = await service();
    const { admin } = test;
    const stuck = await agent({
      name: "Stuck",
      skills: [{ id: "copywriting" }],
      ...speaks,
      streaming: false,
      behaviour: async (task) => {
        task.working({ timestamp: false });
        await waitFor("a cancel", () => task.canceled(), Boolean);
      },
    });
    const run = await admin.createRun(oneItem(1));
    await admin.addAgent(run.run_id, { tag: "stuck", a2a: { url: stuck.url } });
    const task = await seen(stuck, 1);
    const itemId = task.item.id;
    // Renewed while it has said nothing new for less than five leases (300 000 ms)...
    for (let step = 0; step < 9; step++) {
      await renewedAfter(test, run.run_id, itemId, LEASE_MS / 2);
    }
    // ...and given up at the first poll past them.
    test.clock.advance(LEASE_MS / 2);
    const failed = await untilEvent(admin, run.run_id, "work_item.failed");
    expect(failed.reason).toBe(
      "The A2A task said working with nothing new (the same status, message and artifacts) for 300000 ms, 5 times the run's lease_ms: the service gave the attempt up as stuck and asked the agent to cancel the task.",
    );
    await waitFor("the task canceled", () => task.canceled(), Boolean);
  });

  it("of an older attempt given up for silence: the newer attempt's work is kept, the older task canceled", async () => {
    const test = await service();
    const { admin } = test;
    const late = cues();
    const slow = await agent({
      name: "Slow",
      skills: [{ id: "copywriting" }],
      ...speaks,
      streaming: false,
      behaviour: async (task) => {
        if (task.attempt === 1) await late.wait(); // silent past its lease
        task.complete();
      },
    });
    const run = await admin.createRun(oneItem(3));
    await admin.addAgent(run.run_id, { tag: "slow", a2a: { url: slow.url, concurrency: 2 } });
    await seen(slow, 1); // the service knows attempt 1's task: it can cancel it
    await silentUntilGivenUp(test, run.run_id, 1);
    await untilEvent(admin, run.run_id, "work_item.completed");
    late.open(); // attempt 1 finishes now: nobody follows its task any more
    await waitFor("the late task canceled", () => slow.tasks[0]?.canceled() === true, Boolean);
    expect((await settled(admin, run.run_id)).status).toBe("completed");
    const all = await events(admin, run.run_id);
    expect(ofType(all, "work_item.completed").map((event) => event.attempt)).toEqual([2]);
    expect(ofType(all, "artifact.created")).toHaveLength(1);
  });
});
