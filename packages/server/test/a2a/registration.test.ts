// Registering A2A agents on the Node service: cards it cannot serve are refused with the field
// that is wrong (missing, not JSON, no interface, 0.3 only, credentials, too large); a card that
// offers a 0.3 and a 1.0 interface is served over the 1.0 one; only the fields the service uses
// are kept; the answer says whether tasks are followed on their streams, and warns of a review
// stage only a self-reviewer could take (as the run page does).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { byTag, having, only, parsePage, textOf } from "../contract/html.ts";
import { a2aHarness, draftStage, lumenRun, refusal, reviewStage, settled } from "./harness.ts";

const adminToken = "a2a-registration-admin-token-0123456789";
const { service, agent, hostile, onClose } = a2aHarness(adminToken, { a2aPollMs: 20 });

const oneStage = lumenRun();
const withReview = lumenRun({ stages: [draftStage, reviewStage] });

const cardAt = (url: string) => `${url}/.well-known/agent-card.json`;

describe("registering an A2A agent", () => {
  it("refuses an agent whose card is missing, and keeps nothing: the tag stays free", async () => {
    const { admin } = await service();
    const missing = await agent({
      name: "Ghost",
      skills: [{ id: "copywriting" }],
      card: () => null,
    });
    const run = await admin.createRun(oneStage);
    const error = await refusal(
      admin.addAgent(run.run_id, { tag: "ghost", a2a: { url: missing.url } }),
    );
    expect([error.status, error.code, error.message]).toEqual([
      422,
      "AGENT_CARD_INVALID",
      `The A2A agent card at ${cardAt(missing.url)} answered HTTP 404. Check the agent's URL and that it serves an A2A 1.0 agent card there.`,
    ]);
    const good = await agent({ name: "Writer", skills: [{ id: "copywriting" }] });
    const added = await admin.addAgent(run.run_id, { tag: "ghost", a2a: { url: good.url } });
    expect(added.a2a?.stages).toEqual(["draft"]);
  });

  it("refuses a card that is not JSON, or lacks its interfaces, naming the fields", async () => {
    const { admin } = await service();
    const run = await admin.createRun(oneStage);
    const text = await agent({ name: "Text", skills: [], card: () => "<html>hello</html>" });
    const notJson = await refusal(admin.addAgent(run.run_id, { tag: "a", a2a: { url: text.url } }));
    expect([notJson.code, notJson.message]).toEqual([
      "AGENT_CARD_INVALID",
      `The A2A agent card at ${cardAt(text.url)} is not JSON. Check the agent's URL and that it serves an A2A 1.0 agent card there.`,
    ]);
    const bare = await agent({
      name: "Bare",
      skills: [{ id: "copywriting" }],
      card: (card) => ({ ...card, supportedInterfaces: [] }),
    });
    const noInterface = await refusal(
      admin.addAgent(run.run_id, { tag: "b", a2a: { url: bare.url } }),
    );
    expect(noInterface.code).toBe("AGENT_CARD_INVALID");
    expect(noInterface.issues?.map((issue) => issue.path)).toEqual(["/supportedInterfaces"]);
  });

  it("refuses an agent whose skills cover no stage, naming each missing skill", async () => {
    const { admin } = await service();
    const run = await admin.createRun(oneStage);
    const painter = await agent({ name: "Painter", skills: [{ id: "painting", tags: ["art"] }] });
    const error = await refusal(
      admin.addAgent(run.run_id, { tag: "p", a2a: { url: painter.url } }),
    );
    expect(error.code).toBe("AGENT_SKILLS_MISMATCH");
    expect(error.issues).toEqual([
      {
        path: "/stages/draft",
        message:
          'Stage "draft" needs copywriting, which the agent card of "Painter" does not declare (as a skill id or tag).',
      },
    ]);
    const unknown = await refusal(
      admin.addAgent(run.run_id, { tag: "p", a2a: { url: painter.url, stages: ["nope"] } }),
    );
    expect([unknown.status, unknown.code]).toEqual([400, "INVALID_REQUEST"]);
  });

  it("refuses a card whose interfaces speak only A2A 0.3 or gRPC, naming each interface's field", async () => {
    const { admin } = await service();
    const run = await admin.createRun(oneStage);
    const old = await hostile({
      card: (card, url) => ({
        ...card,
        supportedInterfaces: [
          { url: `${url}/`, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
          { url: `${url}/grpc`, protocolBinding: "GRPC", protocolVersion: "1.0" },
        ],
      }),
    });
    const error = await refusal(admin.addAgent(run.run_id, { tag: "old", a2a: { url: old.url } }));
    expect([error.code, error.message, error.issues]).toEqual([
      "AGENT_CARD_INVALID",
      `The A2A agent card at ${cardAt(old.url)} offers no interface the service speaks. Fix the issues listed.`,
      [
        {
          path: "/supportedInterfaces/0/protocolVersion",
          message:
            'The service speaks A2A 1.0, not "0.3": offer an interface with protocolVersion "1.0".',
        },
        {
          path: "/supportedInterfaces/1/protocolBinding",
          message: "The service sends A2A messages over JSONRPC or HTTP+JSON, not GRPC.",
        },
      ],
    ]);
  });

  it("serves a card that offers a 0.3 interface first and a 1.0 one after it over the 1.0 one", async () => {
    const { admin } = await service();
    const legacy = await hostile();
    const writer = await agent({
      name: "Bilingual",
      skills: [{ id: "copywriting" }],
      card: (card) => ({
        ...card,
        supportedInterfaces: [
          { url: `${legacy.url}/`, protocolBinding: "JSONRPC", protocolVersion: "0.3", tenant: "" },
          ...card.supportedInterfaces,
        ],
      }),
    });
    const run = await admin.createRun(oneStage);
    await admin.addAgent(run.run_id, { tag: "bilingual", a2a: { url: writer.url } });
    expect((await settled(admin, run.run_id)).status).toBe("completed");
    expect(writer.tasks.map((task) => task.attempt)).toEqual([1]);
    expect(legacy.requests).toEqual([]);
  });

  it("refuses a card that asks for credentials (its own or a skill's) it was not given, and takes one that also allows none", async () => {
    const { admin } = await service();
    const run = await admin.createRun(oneStage);
    const skillBound = await hostile({
      card: (card) => ({
        ...card,
        skills: [
          {
            id: "copywriting",
            name: "copywriting",
            securityRequirements: [{ schemes: { oauth: { list: ["write"] } } }],
          },
        ],
      }),
    });
    const error = await refusal(
      admin.addAgent(run.run_id, { tag: "bound", a2a: { url: skillBound.url } }),
    );
    expect([error.code, error.issues]).toEqual([
      "AGENT_CREDENTIALS_MISSING",
      [
        {
          path: "/skills/0/securityRequirements/0",
          message:
            'Skill "copywriting" asks for credentials of "oauth"; a2a.credentials has none for "oauth" (the card declares no security scheme of that name).',
        },
      ],
    ]);
    const optional = await hostile({
      card: (card) => ({
        ...card,
        securityRequirements: [{ schemes: { oauth: { list: [] } } }, { schemes: {} }],
      }),
    });
    const added = await admin.addAgent(run.run_id, { tag: "open", a2a: { url: optional.url } });
    expect(added.a2a?.agent_name).toBe("Hostile");
  });

  it("stops reading a card of 20 MiB at 1 MiB and refuses it", async () => {
    const { admin } = await service();
    const run = await admin.createRun(oneStage);
    const huge = await hostile({ cardBytes: 20 * 1024 * 1024 });
    const error = await refusal(admin.addAgent(run.run_id, { tag: "h", a2a: { url: huge.url } }));
    expect([error.status, error.code, error.message]).toEqual([
      422,
      "AGENT_CARD_INVALID",
      `The A2A agent card at ${cardAt(huge.url)} is larger than 1048576 bytes, the most the service reads of a card (it stopped reading there). Check the agent's URL and that it serves an A2A 1.0 agent card there.`,
    ]);
    // The agent could write what the socket buffers held past the cut, never the whole card.
    expect(huge.cardBytesSent()).toBeLessThan(20 * 1024 * 1024);
  });

  it("keeps only the fields of the card it uses", async () => {
    const directory = mkdtempSync(join(tmpdir(), "a2a-card-"));
    onClose(async () => rmSync(directory, { recursive: true, force: true }));
    const database = join(directory, "service.db");
    const { admin } = await service({ database });
    const writer = await agent({
      name: "Writer",
      skills: [{ id: "copywriting", tags: ["writing"] }],
      card: (card) => ({
        ...card,
        description: "d".repeat(100_000),
        provider: { organization: "Lumen", url: "https://lumen.example" },
        documentationUrl: "https://lumen.example/docs",
      }),
    });
    const run = await admin.createRun(oneStage);
    await admin.addAgent(run.run_id, { tag: "writer", a2a: { url: writer.url } });
    const reader = new DatabaseSync(database, { readOnly: true });
    onClose(async () => reader.close());
    const [row] = reader.prepare("SELECT a2a_endpoint FROM agents WHERE tag = 'writer'").all();
    expect(JSON.parse(String(row?.a2a_endpoint)).card).toEqual({
      name: "Writer",
      supportedInterfaces: [
        { url: `${writer.url}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" },
      ],
      capabilities: { streaming: true },
      skills: [{ id: "copywriting", name: "copywriting", tags: ["writing"] }],
    });
  });
});

describe("the registration answer", () => {
  it("says whether the agent's tasks are followed on their streams: as its card offers, on Node", async () => {
    const { admin } = await service();
    const run = await admin.createRun(oneStage);
    const streams = await agent({ name: "S", skills: [{ id: "copywriting" }], streaming: true });
    const polled = await agent({ name: "P", skills: [{ id: "copywriting" }], streaming: false });
    const first = await admin.addAgent(run.run_id, { tag: "s", a2a: { url: streams.url } });
    const second = await admin.addAgent(run.run_id, { tag: "p", a2a: { url: polled.url } });
    expect([first.a2a?.streaming, second.a2a?.streaming]).toEqual([true, false]);
  });

  it("warns when the only A2A agent of a review stage takes the stage it reviews, as the run page does, until another is added", async () => {
    const { server, admin } = await service();
    const run = await admin.createRun(withReview);
    const both = await agent({
      name: "Both",
      skills: [{ id: "copywriting" }, { id: "reviewing" }],
      behaviour: async () => undefined, // it holds its draft: nothing is reviewed meanwhile
    });
    const added = await admin.addAgent(run.run_id, { tag: "both", a2a: { url: both.url } });
    const warning =
      'Stage "review" reviews stage "draft", and the only A2A agent that takes it, "both", takes stage "draft" too: an agent never reviews its own artifact, so the reviews of what "both" writes wait for another agent. Add an A2A agent for stage "review", or a polling agent.';
    expect([added.a2a?.stages, added.warning]).toEqual([["draft", "review"], warning]);

    const page = async () => {
      const response = await fetch(`${server.url}/runs/${run.run_id}`, {
        headers: { authorization: `Bearer ${adminToken}`, accept: "text/html" },
      });
      return parsePage(await response.text());
    };
    const region = only(await page(), having("section", "data-region", "warnings"), "warnings");
    expect(byTag(region, "li").map(textOf)).toEqual([warning]);

    const critic = await agent({ name: "Critic", skills: [{ id: "reviewing" }] });
    const second = await admin.addAgent(run.run_id, { tag: "critic", a2a: { url: critic.url } });
    expect([second.a2a?.stages, second.warning]).toEqual([["review"], undefined]);
    expect(
      byTag(await page(), "section").filter(having("section", "data-region", "warnings")),
    ).toEqual([]);
  });
});
