// A canceled run and its A2A agents: the dispatcher sends a canceled run's items to nobody, and
// an attempt in flight when the run is canceled is given up at once (the dispatcher watches the
// run's events), with a CancelTask to the agent. Nothing here waits for time to pass: the
// service's clock does not move, and the test waits for what the service did.
import { describe, expect, it } from "vitest";
import {
  a2aHarness,
  draftStage,
  events,
  leasedUntil,
  lumenRun,
  ofType,
  waitFor,
} from "./harness.ts";

const adminToken = "a2a-cancel-run-admin-token-0123456789";
const { service, agent } = a2aHarness(adminToken, { a2aPollMs: 20 });

const LEASE_MS = 60_000;

describe("a canceled run's A2A agents", () => {
  it("get a CancelTask for the task in flight at once, and no work after it", async () => {
    const { admin, clock } = await service();
    const mute = await agent({
      name: "Mute",
      skills: [{ id: "copywriting" }],
      streaming: false,
      behaviour: (task) => waitFor("a cancel", () => task.canceled(), Boolean).then(() => {}),
    });
    const run = await admin.createRun(
      lumenRun({ lease_ms: LEASE_MS, stages: [{ ...draftStage, items: 2 }] }),
    );
    await admin.addAgent(run.run_id, { tag: "mute", a2a: { url: mute.url, concurrency: 1 } });
    const task = await waitFor(
      "the first task",
      () => mute.tasks[0],
      (found) => found !== undefined,
    );
    await leasedUntil(admin, run.run_id, 1);
    const before = clock.now();
    const canceled = await admin.cancelRun(run.run_id, { reason: "the brief changed" });
    expect(canceled.status).toBe("canceled");
    // Long before the attempt's lease would run out: the clock has not moved.
    await waitFor("the task canceled", () => task?.canceled() === true, Boolean);
    expect(clock.now()).toBe(before);
    const all = await events(admin, run.run_id);
    // The attempt was given up without a failure (it would be refused): the cancel is last.
    expect(all.at(-1)?.type).toBe("run.canceled");
    expect(ofType(all, "work_item.failed")).toEqual([]);
    expect(ofType(all, "work_item.leased")).toHaveLength(1);
    expect(mute.tasks).toHaveLength(1);
  });
});
