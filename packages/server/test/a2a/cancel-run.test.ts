// A canceled run and its A2A agents: the dispatcher sends a canceled run's items to nobody, and
// an attempt in flight when the run is canceled is given up by the service at the latest when
// its lease would run out (its renewal or its outcome is refused with RUN_CANCELED), with a
// CancelTask to the agent. Nothing here waits for time to pass: the test moves the service's
// clock and waits for what the service did.
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
/** How long before its end a silent attempt is given up: a quarter of the lease, at most 5 s. */
const MARGIN_MS = 5000;

describe("a canceled run's A2A agents", () => {
  it("get a CancelTask for the task in flight, and no work after it", async () => {
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
    const ends = await leasedUntil(admin, run.run_id, 1);
    const canceled = await admin.cancelRun(run.run_id, { reason: "the brief changed" });
    expect(canceled.status).toBe("canceled");
    // The attempt's silence deadline passes: the service gives it up and asks for the cancel.
    clock.advance(ends - MARGIN_MS - clock.now());
    await waitFor("the task canceled", () => task?.canceled() === true, Boolean);
    const all = await events(admin, run.run_id);
    // The attempt's failure was refused (RUN_CANCELED): the run's last event is its cancel.
    expect(all.at(-1)?.type).toBe("run.canceled");
    expect(ofType(all, "work_item.failed")).toEqual([]);
    expect(ofType(all, "work_item.leased")).toHaveLength(1);
    expect(mute.tasks).toHaveLength(1);
  });
});
