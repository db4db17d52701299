// A2A push notifications: an agent whose card offers them (a real agent on the official SDK, its
// own push sender pointed at the service's webhook on loopback) is not polled; its pushed updates
// are applied as streamed ones. Hostile senders: lost (the safety poll completes the item),
// duplicated (applied once), late (after the attempt ended: ignored, counted) and forged
// notifications (refused 401/404 with a code, counted). The clock moves only when a test moves it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import type { NodeServer } from "../../src/node.ts";
import {
  type A2aService,
  a2aHarness,
  events,
  lumenRun,
  ofType,
  settled,
  untilEvent,
  waitFor,
} from "./harness.ts";
import { cuedPusher, freePort, untilTaskStored } from "./push-agents.ts";
import { type PushMode, pushSender, type SentNotification } from "./push-sender.ts";

const adminToken = "a2a-push-admin-token-0123456789";
const { service, agent } = a2aHarness(adminToken, { a2aPollMs: 20 });
const LEASE_MS = 60_000;

async function pushService(): Promise<A2aService> {
  const port = await freePort();
  return service({ port, publicUrl: `http://127.0.0.1:${port}` });
}

/** A service, a run of one item, and a pushing agent registered for it. */
async function pushRun(mode: PushMode, behaviour?: Parameters<typeof agent>[0]["behaviour"]) {
  const sent: SentNotification[] = [];
  const pushing = await agent({
    name: "Writer",
    skills: [{ id: "copywriting" }],
    streaming: false,
    push: pushSender(mode, sent),
    ...(behaviour === undefined ? {} : { behaviour }),
  });
  const svc = await pushService();
  const run = await svc.admin.createRun(lumenRun({ lease_ms: LEASE_MS }));
  await svc.admin.addAgent(run.run_id, { tag: "writer", a2a: { url: pushing.url } });
  return { svc, pushing, sent, runId: run.run_id };
}

/**
 * A service on a database file that sent a cued pushing agent its message (the task stored),
 * stopped, and started again on the same URL and file: the agent's task goes on meanwhile.
 */
async function restarted(mode: PushMode) {
  const { options: pusher, cue, sent } = cuedPusher(mode);
  const pushing = await agent(pusher);
  const port = await freePort();
  const database = join(mkdtempSync(join(tmpdir(), "a2a-push-")), "service.db");
  const options = { port, publicUrl: `http://127.0.0.1:${port}`, database, sweepMs: 20 };
  const before = await service(options);
  const run = await before.admin.createRun(lumenRun({ lease_ms: LEASE_MS }));
  await before.admin.addAgent(run.run_id, { tag: "writer", a2a: { url: pushing.url } });
  await untilTaskStored(database);
  await before.server.close();
  return { pushing, cue, sent, run, after: await service(options) };
}

const stats = (server: NodeServer) => server.a2aPush as NonNullable<NodeServer["a2aPush"]>;

describe("push notifications", () => {
  it("applies an agent's pushed updates and reads the final task back once, without polling", async () => {
    const { svc, pushing, sent, runId } = await pushRun("deliver");
    await settled(svc.admin, runId);
    const all = await events(svc.admin, runId);
    expect(ofType(all, "work_item.completed")).toHaveLength(1);
    expect(ofType(all, "artifact.created")).toHaveLength(1);
    // The one GetTask: the final state read back (the task and its artifact).
    expect(pushing.tasks[0]?.polls()).toBe(1);
    expect(sent.map((notification) => notification.state)).toContain("TASK_STATE_COMPLETED");
    expect(sent[0]?.url).toBe(
      `${svc.server.url}/v1/a2a/push/${runId}/${pushing.tasks[0]?.item.id}/1`,
    );
    expect(sent[0]?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stats(svc.server).refused).toEqual({
      missing_token: 0,
      wrong_token: 0,
      unknown_attempt: 0,
      unknown_task: 0,
      invalid_body: 0,
    });
  });

  it("completes the item by its safety poll when every notification is lost", async () => {
    const { svc, pushing, sent, runId } = await pushRun("lose");
    await waitFor(
      "the agent to finish",
      () => sent.map((n) => n.state),
      (s) => s.includes("TASK_STATE_COMPLETED"),
    );
    expect(pushing.tasks[0]?.polls()).toBe(0);
    expect((await svc.admin.getRun(runId)).status).toBe("active");
    svc.clock.advance(LEASE_MS / 2);
    await untilEvent(svc.admin, runId, "work_item.completed");
    expect(pushing.tasks[0]?.polls()).toBe(1);
    expect(stats(svc.server).applied).toBe(0);
  });

  it("applies a duplicated final notification once", async () => {
    const { svc, runId, sent } = await pushRun("duplicate");
    await settled(svc.admin, runId);
    const all = await events(svc.admin, runId);
    expect(ofType(all, "work_item.completed")).toHaveLength(1);
    expect(ofType(all, "artifact.created")).toHaveLength(1);
    await waitFor(
      "every copy answered",
      () => stats(svc.server).applied + stats(svc.server).late,
      (answered) => answered >= 1 && answered <= 2 * sent.length,
    );
  });

  it("ignores, and counts, a notification after its attempt ended or for an earlier attempt", async () => {
    const { svc, runId, sent } = await pushRun("deliver", async (task) => {
      if (task.attempt === 1) task.finish(TaskState.TASK_STATE_REJECTED, "Not yet");
      else task.complete();
    });
    await settled(svc.admin, runId);
    const before = await events(svc.admin, runId);
    expect(ofType(before, "work_item.failed").map((e) => e.attempt)).toEqual([1]);
    const first = sent.find((n) => n.url.endsWith("/1") && n.state === "TASK_STATE_REJECTED");
    const last = sent.find((n) => n.url.endsWith("/2") && n.state === "TASK_STATE_COMPLETED");
    const lateBefore = stats(svc.server).late;
    for (const notification of [first, last]) {
      if (notification === undefined) throw new Error("a notification was not sent");
      const response = await fetch(notification.url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${notification.token}`,
          "content-type": "application/json",
        },
        body: notification.body,
      });
      expect([response.status, await response.json()]).toEqual([200, { status: "late" }]);
    }
    expect(stats(svc.server).late).toBe(lateBefore + 2);
    expect(await events(svc.admin, runId)).toEqual(before);
  });

  it("refuses forged notifications with 401 or 404 and a code, and counts them", async () => {
    const { svc, runId, sent, pushing } = await pushRun("deliver");
    await settled(svc.admin, runId);
    const other = await svc.admin.createRun(lumenRun());
    const genuine = sent[0] as SentNotification;
    const itemId = pushing.tasks[0]?.item.id as string;
    const post = async (url: string, headers: Record<string, string>, body = genuine.body) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
      return [response.status, await response.json()];
    };
    const wrong = "x".repeat(43);
    expect(await post(genuine.url, {})).toEqual([
      401,
      {
        code: "UNAUTHORIZED",
        error:
          "A push notification needs the attempt's token: Authorization: Bearer <token> (or X-A2A-Notification-Token), as its push configuration gave it.",
      },
    ]);
    expect(await post(genuine.url, { authorization: `Bearer ${wrong}` })).toEqual([
      401,
      {
        code: "UNAUTHORIZED",
        error:
          "The push notification's token is not the attempt's. Send the token of the push configuration this URL came with.",
      },
    ]);
    const unknown = {
      code: "NOT_FOUND",
      error: "No A2A attempt of this service waits for push notifications at this URL.",
    };
    const token = { authorization: `Bearer ${genuine.token}` };
    expect(await post(`${svc.server.url}/v1/a2a/push/${runId}/${itemId}/9`, token)).toEqual([
      404,
      unknown,
    ]);
    expect(await post(`${svc.server.url}/v1/a2a/push/${other.run_id}/${itemId}/1`, token)).toEqual([
      404,
      unknown,
    ]);
    const otherTask = JSON.stringify({
      statusUpdate: {
        taskId: "task-of-someone-else",
        contextId: runId,
        status: { state: "TASK_STATE_COMPLETED" },
      },
    });
    expect(await post(genuine.url, token, otherTask)).toEqual([
      404,
      {
        code: "NOT_FOUND",
        error:
          'The push notification is about task "task-of-someone-else", not the attempt\'s task.',
      },
    ]);
    expect(stats(svc.server).refused).toEqual({
      missing_token: 1,
      wrong_token: 1,
      unknown_attempt: 2,
      unknown_task: 1,
      invalid_body: 0,
    });
    expect(ofType(await events(svc.admin, runId), "work_item.completed")).toHaveLength(1);
  });

  it("applies a notification that comes after the service restarted, from the stored attempt", async () => {
    const { pushing, cue, run, after } = await restarted("deliver");
    cue.open();
    const completed = await untilEvent(after.admin, run.run_id, "work_item.completed");
    expect(completed.attempt).toBe(1);
    expect(stats(after.server).applied).toBeGreaterThanOrEqual(1);
    expect(pushing.tasks[0]?.polls()).toBe(1);
  });

  it("reads a task no attempt follows since a restart, half a lease after its last news, when its notifications are lost", async () => {
    const { pushing, cue, sent, run, after } = await restarted("lose");
    cue.open();
    await waitFor(
      "the final notification",
      () => sent.map((n) => n.state),
      (states) => states.includes("TASK_STATE_COMPLETED"),
    );
    expect(pushing.tasks[0]?.polls()).toBe(0);
    after.clock.advance(LEASE_MS / 2);
    const completed = await untilEvent(after.admin, run.run_id, "work_item.completed");
    expect([completed.agent_tag, completed.attempt]).toEqual(["writer", 1]);
    expect(pushing.tasks[0]?.polls()).toBe(1);
  });
});
