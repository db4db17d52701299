// GET /v1/runs/{run_id}/agents shows an A2A agent's last failed attempts with the reasons the
// dispatcher recorded — an agent that answers with a JSON-RPC error, one that nothing answers
// for — the last five, newest first. The Node service dispatches; the test waits for the run to
// settle (its item dead-lettered), never for time to pass.
import { describe, expect, it } from "vitest";
import { a2aHarness, lumenRun, settled } from "./harness.ts";

const adminToken = "a2a-list-agents-admin-token-0123456789";
const { service, hostile } = a2aHarness(adminToken, { a2aPollMs: 20 });

describe("GET /v1/runs/{run_id}/agents, for an A2A agent whose attempts fail", () => {
  it("shows the last five failures of seven, newest first, with the JSON-RPC error each answered", async () => {
    const { admin, clock } = await service();
    const rude = await hostile({ name: "Rude" });
    const run = await admin.createRun(lumenRun({ max_attempts: 7 }));
    const added = await admin.addAgent(run.run_id, { tag: "rude", a2a: { url: rude.url } });
    expect((await settled(admin, run.run_id)).status).toBe("blocked");
    const [letter] = (await admin.listDeadLetters(run.run_id)).dead_letters;
    const at = new Date(clock.now()).toISOString();
    const reason =
      "The A2A agent answered SendMessage with JSON-RPC error -32601: Method not found.";
    expect(await admin.listAgents(run.run_id)).toEqual({
      agents: [
        {
          agent_id: added.agent_id,
          tag: "rude",
          kind: "a2a",
          stages: ["draft"],
          a2a: {
            url: rude.url,
            agent_name: "Rude",
            interface_url: `${rude.url}/`,
            protocol_binding: "JSONRPC",
            protocol_version: "1.0",
            concurrency: 1,
            card_signature: { verified: false },
            // Each failure's JSON-RPC error made the card due: read again, unchanged.
            card_check: { at, outcome: "unchanged" },
            transport_errors: [7, 6, 5, 4, 3].map((attempt) => ({
              at,
              kind: "protocol_error",
              work_item_id: letter?.work_item.id,
              attempt,
            })),
            last_errors: [7, 6, 5, 4, 3].map((attempt) => ({
              at,
              work_item_id: letter?.work_item.id,
              attempt,
              reason,
            })),
          },
        },
      ],
    });
  });

  it("says that nothing answered at the card's interface", async () => {
    const { admin } = await service();
    // A card whose interface is on port 9 of the loopback address, where nothing listens.
    const gone = await hostile({
      name: "Gone",
      card: (card) => ({
        ...(card as object),
        supportedInterfaces: [{ url: "http://127.0.0.1:9/", protocolBinding: "JSONRPC" }],
      }),
    });
    const run = await admin.createRun(lumenRun({ max_attempts: 1 }));
    await admin.addAgent(run.run_id, { tag: "gone", a2a: { url: gone.url } });
    expect((await settled(admin, run.run_id)).status).toBe("blocked");
    const [listed] = (await admin.listAgents(run.run_id)).agents;
    expect(listed?.a2a?.interface_url).toBe("http://127.0.0.1:9/");
    // A card's interface without a protocolVersion is taken, and kept, as A2A 1.0.
    expect(listed?.a2a?.protocol_version).toBe("1.0");
    expect(listed?.a2a?.last_errors.map((error) => [error.attempt, error.reason])).toEqual([
      [1, expect.stringMatching(/^The A2A agent could not be reached \(SendMessage\): .+\.$/)],
    ]);
    expect(listed?.a2a?.transport_errors.map(({ kind, attempt }) => [kind, attempt])).toEqual([
      ["unreachable", 1],
    ]);
  });
});
