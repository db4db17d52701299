// Registered A2A agents' cards kept fresh, on the Node service: the card is read again before the
// agent's next attempt once `a2aCardRefreshMs` passed on the service's clock (moved by the test,
// never waited for), and at once after an attempt failed with a transport error. A changed card is
// taken — an `agent.card_changed` event says what changed, the next attempt goes to its new
// interface — and a card that now fails keeps the last good one, with `agent.card_check_failed`
// and the agent list's `card_check` saying why. The agents are the official SDK's servers.
import { type AgentCard, generateAgentCardSignature } from "@a2a-js/sdk";
import { exportJWK, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { byTag, having, only, parsePage, textOf } from "../contract/html.ts";
import type { A2aAgentOptions } from "./a2a-agent.ts";
import {
  type A2aService,
  a2aHarness,
  cues,
  draftStage,
  events,
  lumenRun,
  ofType,
  settled,
  waitFor,
} from "./harness.ts";
import { movedTo, movingCard } from "./moving-card.ts";
import { registerMover } from "./register-mover.ts";

const adminToken = "a2a-cards-refresh-admin-token-0123456789";
// Well inside the runs' lease (60 s): moving the clock by it never gives an attempt up as silent.
const refreshMs = 1_000;
const { service, agent } = a2aHarness(adminToken, { a2aPollMs: 20, a2aCardRefreshMs: refreshMs });

const skills = [{ id: "copywriting" }];
/** Two stages the same agent takes, one after the other: two attempts, one card check between. */
const twoDrafts = lumenRun({ stages: [draftStage, { ...draftStage, id: "polish" }] });

/**
 * Starts an agent "Writer" whose card is `card(card, changed)`, registers it for the two drafts,
 * and once its first task runs, marks the card changed and moves the clock by the refresh
 * interval before that task completes: the second draft's attempt finds the card due.
 */
async function changedDuringFirstTask(
  { admin, clock }: A2aService,
  card: (card: AgentCard, changed: boolean) => unknown,
  options: Partial<A2aAgentOptions> = {},
) {
  const firstDone = cues();
  let changed = false;
  const writer = await agent({
    ...options,
    name: "Writer",
    skills,
    card: (served) => card(served, changed),
    behaviour: async (task) => {
      if (task.item.stage_id === "draft") await firstDone.wait();
      task.complete();
    },
  });
  const run = await admin.createRun(twoDrafts);
  await admin.addAgent(run.run_id, { tag: "writer", a2a: { url: writer.url } });
  await waitFor(
    "the first task",
    () => writer.tasks.length,
    (count) => count === 1,
  );
  changed = true;
  clock.advance(refreshMs);
  firstDone.open();
  expect((await settled(admin, run.run_id)).status).toBe("completed");
  return { writer, run };
}

describe("an A2A agent's card, read again", () => {
  it("takes a card that changed once the refresh interval passed: the event, and the next attempt goes to its new interface", async () => {
    const started = await service();
    const { admin, clock } = started;
    const successor = await agent({ name: "Successor", skills });
    // The agent moves, and the refresh interval passes, while its first task runs.
    const { writer, run } = await changedDuringFirstTask(started, (card, moved) =>
      moved ? movedTo(card, `${successor.url}/`) : card,
    );
    expect([writer.tasks.length, successor.tasks.map((task) => task.item.stage_id)]).toEqual([
      1,
      ["polish"],
    ]);
    const [changed, ...more] = ofType(await events(admin, run.run_id), "agent.card_changed");
    expect(more).toEqual([]);
    expect([changed?.agent_tag, changed?.changes]).toEqual([
      "writer",
      [{ field: "interface_url", before: `${writer.url}/`, after: `${successor.url}/` }],
    ]);
    const [listed] = (await admin.listAgents(run.run_id)).agents;
    expect([listed?.a2a?.interface_url, listed?.a2a?.card_check]).toEqual([
      `${successor.url}/`,
      { at: new Date(clock.now()).toISOString(), outcome: "changed" },
    ]);
  });

  it("keeps the last good card when the card can no longer be read, and says why once", async () => {
    const started = await service();
    const { admin, clock } = started;
    const { writer, run } = await changedDuringFirstTask(started, (card, gone) =>
      gone ? null : card,
    );
    // The second attempt went to the interface of the last good card.
    expect(writer.tasks.map((task) => task.item.stage_id)).toEqual(["draft", "polish"]);
    const reason = `The A2A agent card at ${writer.url}/.well-known/agent-card.json answered HTTP 404. Check the agent's URL and that it serves an A2A agent card (1.0 or 0.3) there.`;
    const failed = ofType(await events(admin, run.run_id), "agent.card_check_failed");
    expect(failed.map((event) => [event.agent_tag, event.reason])).toEqual([["writer", reason]]);
    const [listed] = (await admin.listAgents(run.run_id)).agents;
    const at = new Date(clock.now()).toISOString();
    expect([listed?.a2a?.interface_url, listed?.a2a?.card_check]).toEqual([
      `${writer.url}/`,
      { at, outcome: "failed", reason },
    ]);
    // The run page shows the same, in the agent's row.
    const response = await fetch(`${started.server.url}/runs/${run.run_id}`, {
      headers: { authorization: `Bearer ${adminToken}`, accept: "text/html" },
    });
    const row = only(
      parsePage(await response.text()),
      having("tr", "data-agent-tag", "writer"),
      "row",
    );
    expect(byTag(row, "td").map(textOf)).toEqual([
      `${writer.url}/JSONRPC · A2A 1.0`,
      "unsigned",
      `⚠ failed · ${at}${reason}The last good card is used.`,
      "none",
    ]);
  });

  it("reads the card again at once after a transport error, without the clock moving", async () => {
    const { admin, clock } = await service();
    const registeredAt = clock.now();
    const successor = await agent({ name: "Successor", skills });
    // Registered with an interface where nothing listens; every later read names the successor.
    const mover = await agent({
      name: "Mover",
      skills,
      card: movingCard("http://127.0.0.1:9/", () => `${successor.url}/`),
    });
    const run = await admin.createRun(lumenRun({ max_attempts: 3 }));
    const listed = await registerMover(admin, run.run_id, mover.url, successor);
    expect(listed?.a2a?.transport_errors.map(({ kind, attempt }) => [kind, attempt])).toEqual([
      ["unreachable", 1],
    ]);
    expect(listed?.a2a?.card_check).toEqual({
      at: new Date(registeredAt).toISOString(),
      outcome: "changed",
    });
  });

  it("does not take a card signed at registration that is served unsigned later", async () => {
    const started = await service();
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const key = { ...(await exportJWK(publicKey)), kid: "writer-key", alg: "ES256" };
    const sign = (card: AgentCard) =>
      generateAgentCardSignature(privateKey, {
        alg: "ES256",
        typ: "JOSE",
        kid: "writer-key",
        jku: `${new URL(card.supportedInterfaces[0]?.url ?? "").origin}/jwks.json`,
      })(card);
    const { run } = await changedDuringFirstTask(
      started,
      (card, stripped) => (stripped ? card : sign(card)),
      { jwks: { keys: [key] } },
    );
    const reason =
      'The A2A agent card of "Writer" carries no signature, and its card was signed when it was registered: a card once verified must stay signed. Have the agent sign its card again, or register it again. /signatures: The card has no signatures.';
    const failed = ofType(await events(started.admin, run.run_id), "agent.card_check_failed");
    expect(failed.map((event) => event.reason)).toEqual([reason]);
    const [listed] = (await started.admin.listAgents(run.run_id)).agents;
    expect([listed?.a2a?.card_signature.kid, listed?.a2a?.card_check?.outcome]).toEqual([
      "writer-key",
      "failed",
    ]);
  });
});
