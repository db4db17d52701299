// A2A push notifications on workerd: the run's object sends the message with a push
// configuration (TASK_CONTEXT_PUBLIC_URL's webhook and a per-attempt token) and hands the task
// over instead of polling it from its alarm; the router forwards each notification to the run's
// object, which applies it. The agent is real (the official SDK's server and push sender, in the
// global setup); workerd has no address the agent could reach here, so its sender records each
// notification and the test posts it to the router, as the agent would have.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import type { SentNotification } from "../a2a/push-sender.ts";
import { createRun, ofType, runInput, taskStage } from "../contract/client.ts";
import { runObject, workersService } from "./services.ts";

const LEASE_MS = 60_000;

/** The notifications the agent sent for the run so far. */
async function sentFor(runId: string): Promise<SentNotification[]> {
  const all = (await (await fetch(inject("a2aPushSentUrl"))).json()) as SentNotification[];
  return all.filter((notification) => notification.url.includes(`/${runId}/`));
}

/** Waits until the agent has sent the run's final notification (it works apart from workerd). */
async function untilFinal(runId: string): Promise<SentNotification[]> {
  const end = Date.now() + 20_000;
  for (;;) {
    const sent = await sentFor(runId);
    if (sent.some((notification) => notification.state === "TASK_STATE_COMPLETED")) return sent;
    if (Date.now() > end) throw new Error("the agent sent no final notification");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function pushedRun() {
  const service = await workersService();
  const fixture = await createRun(service, runInput([taskStage("draft")], { lease_ms: LEASE_MS }));
  const added = await fixture.admin.post(`/v1/runs/${fixture.run.run_id}/agents`, {
    body: { tag: "edge-pusher", a2a: { url: inject("a2aPushUrl") } },
  });
  expect(added.status, added.text).toBe(201);
  // The round: the item claimed, its message sent with the webhook, the task handed over.
  expect(await runDurableObjectAlarm(runObject(fixture.run.run_id))).toBe(true);
  return { service, ...fixture };
}

/** Posts a notification to the router as the agent would (the webhook's path, its token). */
function post(
  service: Awaited<ReturnType<typeof workersService>>,
  notification: SentNotification,
  headers: Record<string, string> = { authorization: `Bearer ${notification.token}` },
) {
  const path = new URL(notification.url).pathname;
  return service.fetch(`${service.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/a2a+json", ...headers },
    body: notification.body,
  });
}

describe("A2A push notifications on workerd", () => {
  it("the run's object applies what the agent pushes, forwarded by the router, once", async () => {
    const { service, run, events } = await pushedRun();
    const sent = await untilFinal(run.run_id);
    expect(new URL(sent[0]?.url as string).origin).toBe("https://tasks.example");
    expect(ofType(await events(), "work_item.completed")).toHaveLength(0);
    for (const notification of sent) {
      const response = await post(service, notification);
      expect(response.status).toBe(200);
    }
    const completed = ofType(await events(), "work_item.completed");
    expect(completed.map((event) => [event.agent_tag, event.attempt])).toEqual([
      ["edge-pusher", 1],
    ]);
    // The final notification again: late, ignored.
    const final = sent.find((n) => n.state === "TASK_STATE_COMPLETED") as SentNotification;
    const again = await post(service, final);
    expect([again.status, await again.json()]).toEqual([200, { status: "late" }]);
    expect(ofType(await events(), "work_item.completed")).toHaveLength(1);
  });

  it("refuses forged notifications: no token, a wrong one, another run's path", async () => {
    const { service, run } = await pushedRun();
    const [first] = await untilFinal(run.run_id);
    const genuine = first as SentNotification;
    const none = await post(service, genuine, {});
    expect([none.status, ((await none.json()) as { code: string }).code]).toEqual([
      401,
      "UNAUTHORIZED",
    ]);
    const wrong = await post(service, genuine, { authorization: `Bearer ${"x".repeat(43)}` });
    expect([wrong.status, ((await wrong.json()) as { code: string }).code]).toEqual([
      401,
      "UNAUTHORIZED",
    ]);
    const other = await createRun(service, runInput([taskStage("draft")]));
    const elsewhere = { ...genuine, url: genuine.url.replace(run.run_id, other.run.run_id) };
    const misdirected = await post(service, elsewhere);
    expect([misdirected.status, await misdirected.json()]).toEqual([
      404,
      {
        code: "NOT_FOUND",
        error: "No A2A attempt of this service waits for push notifications at this URL.",
      },
    ]);
  });

  it("a lost notification: the alarm's safety poll, half a lease later, completes the item", async () => {
    const { service, run, events } = await pushedRun();
    await untilFinal(run.run_id);
    // Nothing is posted. The alarm is set at the safety poll; the object's clock is moved to it.
    await service.advance(LEASE_MS / 2);
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    const completed = ofType(await events(), "work_item.completed");
    expect(completed.map((event) => event.attempt)).toEqual([1]);
  });

  it("a task handed over holds its agent's slot: the second item waits for the first to end", async () => {
    const service = await workersService();
    const { admin, run, events } = await createRun(
      service,
      runInput([taskStage("draft", { items: 2 })], { lease_ms: LEASE_MS }),
    );
    const added = await admin.post(`/v1/runs/${run.run_id}/agents`, {
      body: { tag: "edge-pusher", a2a: { url: inject("a2aPushUrl"), concurrency: 1 } },
    });
    expect(added.status, added.text).toBe(201);
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    const leased = async () => ofType(await events(), "work_item.leased");
    expect((await leased()).length).toBe(1);
    // The item still on offer rings the alarm once more: no free slot, nothing sent.
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    expect((await leased()).length).toBe(1);
    // From then on the alarm rings for the safety poll, not at once for the item on offer.
    const due = await runInDurableObject(runObject(run.run_id), (_, state) =>
      state.storage.getAlarm(),
    );
    expect(due).toBeGreaterThan(Date.now() + LEASE_MS / 4);
    // The first task's notifications end it; then the second item is sent.
    for (const notification of await untilFinal(run.run_id)) await post(service, notification);
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    expect((await leased()).length).toBe(2);
  });
});
