// Agent cards on workerd: the router Worker reads the card and verifies its signature (jose on
// WebCrypto, the key set fetched from the signature's jku on the card's origin, from inside
// workerd); a card changed after it was signed is refused, and nothing is kept. A card is read
// again from the run's Durable Object's alarm round after an attempt's transport error. The card
// hosts and agents are real servers on loopback, started by the suite's global setup.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { createRun, runInput, taskStage } from "../contract/client.ts";
import { runObject, workersService } from "./services.ts";

describe("signed A2A agent cards on workerd", () => {
  it("verifies a signed card with the key at its jku, and lists by which key", async () => {
    const { signed } = inject("a2aCardHosts");
    const service = await workersService();
    const { admin, run } = await createRun(
      service,
      runInput([taskStage("illustrate", { available_skills: ["illustrate"] })]),
    );
    const path = `/v1/runs/${run.run_id}/agents`;
    const added = await admin.post<{ a2a: { card_signature: unknown } }>(path, {
      body: { tag: "signed", a2a: { url: signed, require_signature: true } },
    });
    expect(added.status, added.text).toBe(201);
    const signature = {
      verified: true,
      kid: "edge-key",
      alg: "ES256",
      key_source: "jku",
      jku: `${signed}/jwks.json`,
    };
    expect(added.body.a2a.card_signature).toEqual(signature);
    const listed = await admin.get<{ agents: { a2a?: { card_signature: unknown } }[] }>(path);
    expect(listed.body.agents[0]?.a2a?.card_signature).toEqual(signature);
  });

  it("refuses a card changed after it was signed (422), and keeps nothing", async () => {
    const { tampered } = inject("a2aCardHosts");
    const service = await workersService();
    const { admin, run } = await createRun(
      service,
      runInput([taskStage("illustrate", { available_skills: ["illustrate"] })]),
    );
    const path = `/v1/runs/${run.run_id}/agents`;
    const refused = await admin.post(path, { body: { tag: "t", a2a: { url: tampered } } });
    expect([refused.status, refused.error?.code, refused.error?.issues]).toEqual([
      422,
      "AGENT_CARD_SIGNATURE_INVALID",
      [
        {
          path: "/signatures/0",
          message: `The signature by key "edge-key" (ES256, from ${tampered}/jwks.json) does not match the card: the card was changed after it was signed, or signed with another key.`,
        },
      ],
    ]);
    const listed = await admin.get<{ agents: unknown[] }>(path);
    expect(listed.body.agents).toEqual([]);
  });
});

describe("A2A agents' cards read again on workerd", () => {
  it("after a transport error in the alarm's round, the next round reads the card again and sends to its new interface", async () => {
    const mover = inject("a2aMoverUrl");
    const writer = inject("a2aAgentUrl");
    const service = await workersService();
    const { admin, run, events } = await createRun(
      service,
      runInput([taskStage("draft")], { lease_ms: 60_000, max_attempts: 3 }),
    );
    const path = `/v1/runs/${run.run_id}/agents`;
    const added = await admin.post(path, { body: { tag: "mover", a2a: { url: mover } } });
    expect(added.status, added.text).toBe(201);
    // Round 1: nothing listens at the registered interface. Round 2: the card, read again, names
    // the writer's interface, and the attempt is sent there.
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    expect((await admin.getRun(run.run_id)).body.status).toBe("completed");
    const changed = (await events()).flatMap((event) =>
      event.type === "agent.card_changed" ? [[event.agent_tag, event.changes]] : [],
    );
    expect(changed).toEqual([
      ["mover", [{ field: "interface_url", before: "http://127.0.0.1:9/", after: `${writer}/` }]],
    ]);
    const listed = await admin.get<{
      agents: { a2a?: { interface_url: string; card_check: { outcome: string } | null } }[];
    }>(path);
    expect([
      listed.body.agents[0]?.a2a?.interface_url,
      listed.body.agents[0]?.a2a?.card_check?.outcome,
    ]).toEqual([`${writer}/`, "changed"]);
  });
});
