import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/delivery/ids.ts";
import { DurableObjectStore } from "../../src/workers/durable-object-store.ts";
import { artifactCompletion, createRun, runInput, taskStage } from "../contract/client.ts";
import { EVENTUALLY } from "../contract/harness.ts";
import { runObject, workersService } from "./services.ts";

const LEASE_MS = 5000;

/** The types of a run's events as stored, read inside its object (no query, no sweep). */
const storedEvents = (runId: string) =>
  runInDurableObject(runObject(runId), (_, state) =>
    state.storage.sql
      .exec<{ body: string }>("SELECT body FROM events ORDER BY seq")
      .toArray()
      .map((row) => (JSON.parse(row.body) as { type: string }).type),
  );

/** When the run's object's alarm is set to ring (ms since the epoch), or null. */
const alarmOf = (runId: string) =>
  runInDurableObject(runObject(runId), (_, state) => state.storage.getAlarm());

async function claimedRun(options: Parameters<typeof workersService>[0] = {}) {
  const service = await workersService(options);
  const fixture = await createRun(service, runInput([taskStage("draft")], { lease_ms: LEASE_MS }));
  const worker = await fixture.agent("worker");
  const before = Date.now();
  const claimed = await worker.claimNext();
  expect(claimed.status).toBe(200);
  return { service, ...fixture, worker, claimed: claimed.body, claimedAt: [before, Date.now()] };
}

describe("alarms at the earliest lease expiry", () => {
  it("a claim sets the alarm at its lease's expiry; the completion removes it", async () => {
    const { run, worker, claimed, claimedAt } = await claimedRun();
    const alarm = await alarmOf(run.run_id);
    expect(alarm).toBeGreaterThanOrEqual((claimedAt[0] ?? 0) + LEASE_MS);
    expect(alarm).toBeLessThanOrEqual((claimedAt[1] ?? 0) + LEASE_MS);
    await worker.complete(claimed.work_item.id, artifactCompletion(1));
    expect(await alarmOf(run.run_id)).toBeNull();
  });

  it("the alarm expires an overdue lease before anyone asks, and wakes nothing more", async () => {
    const { service, run } = await claimedRun();
    await service.advance(LEASE_MS);
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    expect(await storedEvents(run.run_id)).toEqual([
      "run.created",
      "work_item.offered",
      "work_item.leased",
      "work_item.lease_expired",
      "work_item.offered",
    ]);
    expect(await alarmOf(run.run_id)).toBeNull();
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(false);
  });

  it("an alarm before the expiry (alarms are at-least-once) changes nothing and is set again", async () => {
    const { service, run } = await claimedRun();
    await service.advance(LEASE_MS - 1);
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    expect(await storedEvents(run.run_id)).toEqual([
      "run.created",
      "work_item.offered",
      "work_item.leased",
    ]);
    expect(await alarmOf(run.run_id)).not.toBeNull();
  });

  it("an alarm rings by itself at its time", async () => {
    const service = await workersService();
    const { run, agent } = await createRun(
      service,
      runInput([taskStage("draft")], { lease_ms: 100 }),
    );
    await (await agent("worker")).claimNext();
    await service.advance(100);
    await expect
      .poll(() => storedEvents(run.run_id), EVENTUALLY)
      .toContain("work_item.lease_expired");
  });

  it("a long poll answers when the alarm expires the lease it waits for", async () => {
    const store = new DurableObjectStore(env.RUNS);
    const waiting: string[] = [];
    const claimNext = store.claimNext.bind(store);
    store.claimNext = (runId, agent, options) => {
      waiting.push(runId);
      return claimNext(runId, agent, options);
    };
    // The object's line looks at the run only on a new event: the alarm's lease_expired must wake it.
    const service = await workersService({ recheckMs: 60_000 }, store);
    const { run, agent } = await createRun(
      service,
      runInput([taskStage("draft")], { lease_ms: LEASE_MS }),
    );
    const crashed = await agent("crashed");
    const waiter = await agent("waiter");
    await crashed.claimNext();
    const answer = waiter.claimNext({ wait: 30 });
    await expect.poll(() => waiting.length, EVENTUALLY).toBeGreaterThan(0);
    await service.advance(LEASE_MS);
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    const claimed = await answer;
    expect([claimed.status, claimed.body.lease.attempt]).toEqual([200, 2]);
  });

  it("a store error in the alarm's round is told, not thrown: the alarm rings again a second later, and that round expires the lease", async () => {
    const { service, run } = await claimedRun();
    // A real error of the object's SQLite storage, raised whenever a work item is written.
    const trigger = (sql: string) =>
      runInDurableObject(runObject(run.run_id), (_, state) => {
        state.storage.sql.exec(sql);
      });
    await trigger(
      "CREATE TRIGGER broken BEFORE UPDATE ON work_items BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END",
    );
    await service.advance(LEASE_MS);
    const before = Date.now();
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    const retry = await alarmOf(run.run_id);
    expect(retry).toBeGreaterThanOrEqual(before + 1000);
    expect(retry).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await storedEvents(run.run_id)).not.toContain("work_item.lease_expired");
    await trigger("DROP TRIGGER broken");
    await service.advance(1000);
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    expect((await storedEvents(run.run_id)).slice(-2)).toEqual([
      "work_item.lease_expired",
      "work_item.offered",
    ]);
    expect(await alarmOf(run.run_id)).toBeNull();
  });

  it("the alarm of an object that holds no run does nothing and creates nothing", async () => {
    const runId = newId("run");
    const tables = await runInDurableObject(runObject(runId), async (instance, state) => {
      await instance.alarm();
      return state.storage.sql.exec("SELECT name FROM sqlite_master").toArray();
    });
    expect(tables).toEqual([]);
  });
});
