// A2A agents behind authentication: registered with credentials for the schemes their cards
// declare (HTTP Bearer, an API key in a header or the query, OAuth 2 client credentials from a
// real token endpoint on loopback whose tokens the injected clock expires), refused at
// registration when a required scheme has none, and the secrets never shown again: not in an
// answer, an event, the run page or a log.

import type { IncomingMessage } from "node:http";
import type { AddAgentInput } from "@task-context/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { A2aAgentOptions } from "./a2a-agent.ts";
import {
  a2aHarness,
  events,
  lumenRun,
  ofType,
  refusal,
  settled,
  untilEvent,
  waitFor,
} from "./harness.ts";
import { rpcError, taskJson } from "./hostile-agent.ts";
import { startTokenEndpoint } from "./token-endpoint.ts";

const adminToken = "a2a-credentials-admin-token-0123456789";
const { service, agent, hostile, example, onClose } = a2aHarness(adminToken, { a2aPollMs: 20 });

const BEARER = "s3cret-bearer-Qx7kP2mZ";
const API_KEY = "s3cret-key-Vb9wL4nR";
const CLIENT_SECRET = "s3cret-client-Hs6tJ1yE";
const SECRETS = [BEARER, API_KEY, CLIENT_SECRET];

/** What the service logged while a test ran. */
let logged: string[] = [];
beforeEach(() => {
  logged = [];
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((arg) => (arg instanceof Error ? arg.stack : String(arg))).join(" "));
    });
  }
});
afterEach(() => vi.restoreAllMocks());

const writer = (security: NonNullable<A2aAgentOptions["security"]>): A2aAgentOptions => ({
  name: "Writer",
  skills: [{ id: "copywriting" }],
  security,
});

const bearerScheme = {
  scheme: {
    $case: "httpAuthSecurityScheme" as const,
    value: { description: "", scheme: "Bearer", bearerFormat: "" },
  },
};
const apiKeyScheme = (location: string) => ({
  scheme: {
    $case: "apiKeySecurityScheme" as const,
    value: { description: "", location, name: "X-Api-Key" },
  },
});
const requires = (...names: string[]) => [
  { schemes: Object.fromEntries(names.map((name) => [name, { list: [] }])) },
];
const bearerAdmits = (token: string) => (request: IncomingMessage) =>
  request.headers.authorization === `Bearer ${token}`;

/** Everything a reader can see of the run: answers, events, the agent list and the run page. */
async function everythingShown(
  served: { server: { url: string }; admin: import("@task-context/client").ServiceClient },
  runId: string,
  answers: unknown[],
): Promise<string> {
  const page = await fetch(`${served.server.url}/runs/${runId}`, {
    headers: { authorization: `Bearer ${adminToken}`, accept: "text/html" },
  });
  return [
    JSON.stringify(answers),
    JSON.stringify(await served.admin.getRun(runId)),
    JSON.stringify(await served.admin.listAgents(runId)),
    JSON.stringify(await events(served.admin, runId)),
    await page.text(),
    logged.join("\n"),
  ].join("\n");
}

describe("registering an A2A agent behind authentication", () => {
  it("refuses it when a required scheme has no credential, naming the scheme and what to give", async () => {
    const { admin } = await service();
    const locked = await agent(
      writer({
        schemes: { bearer: bearerScheme },
        requirements: requires("bearer"),
        admits: bearerAdmits(BEARER),
      }),
    );
    const run = await admin.createRun(lumenRun());
    const error = await refusal(
      admin.addAgent(run.run_id, { tag: "writer", a2a: { url: locked.url } }),
    );
    expect(error.status).toBe(422);
    expect(error.code).toBe("AGENT_CREDENTIALS_MISSING");
    expect(error.message).toBe(
      `The A2A agent card of "Writer" asks for credentials the registration does not give. Add them to a2a.credentials under the security scheme's name.`,
    );
    expect(error.issues).toEqual([
      {
        path: "/securityRequirements/0",
        message:
          'The card asks for credentials of "bearer"; a2a.credentials has none for "bearer" (an HTTP Bearer scheme: give { "bearer_token": "…" }).',
      },
    ]);
    const misfit = await refusal(
      admin.addAgent(run.run_id, {
        tag: "writer",
        a2a: {
          url: locked.url,
          credentials: { bearer: { api_key: API_KEY }, other: { bearer_token: BEARER } },
        },
      }),
    );
    expect([misfit.status, misfit.code]).toEqual([400, "INVALID_REQUEST"]);
    expect(misfit.issues?.map((issue) => issue.path)).toEqual([
      "/a2a/credentials/bearer",
      "/a2a/credentials/other",
    ]);
    expect(JSON.stringify(misfit)).not.toContain(API_KEY);
    expect((await admin.listAgents(run.run_id)).agents).toEqual([]);
  });

  it.each([
    [
      "an HTTP Bearer token",
      {
        schemes: { bearer: bearerScheme },
        requirements: requires("bearer"),
        admits: bearerAdmits(BEARER),
      },
      { bearer: { bearer_token: BEARER } },
    ],
    [
      "an API key in a header",
      {
        schemes: { key: apiKeyScheme("header") },
        requirements: requires("key"),
        admits: (request: IncomingMessage) => request.headers["x-api-key"] === API_KEY,
      },
      { key: { api_key: API_KEY } },
    ],
    [
      "an API key in the query",
      {
        schemes: { key: apiKeyScheme("query") },
        requirements: requires("key"),
        admits: (request: IncomingMessage) =>
          new URL(request.url ?? "/", "http://agent").searchParams.get("X-Api-Key") === API_KEY,
      },
      { key: { api_key: API_KEY } },
    ],
    [
      "an API key in a cookie",
      {
        schemes: { key: apiKeyScheme("cookie") },
        requirements: requires("key"),
        admits: (request: IncomingMessage) => request.headers.cookie === `X-Api-Key=${API_KEY}`,
      },
      { key: { api_key: API_KEY } },
    ],
  ] as const)(
    "sends %s with every request: the item is completed, the secret shown nowhere",
    async (_name, security, credentials) => {
      const served = await service();
      const protectedAgent = await agent(writer(security));
      const run = await served.admin.createRun(lumenRun());
      const added = await served.admin.addAgent(run.run_id, {
        tag: "writer",
        a2a: {
          url: protectedAgent.url,
          credentials: credentials as NonNullable<AddAgentInput["a2a"]>["credentials"],
        },
      });
      expect((await settled(served.admin, run.run_id)).status).toBe("completed");
      expect(protectedAgent.tasks).toHaveLength(1);
      expect(protectedAgent.refused).toHaveLength(0);
      const shown = await everythingShown(served, run.run_id, [added]);
      for (const secret of SECRETS) expect(shown).not.toContain(secret);
    },
  );

  it("a wrong credential fails the attempt with the agent's HTTP 401 as its reason, the secret unshown", async () => {
    const served = await service();
    const protectedAgent = await agent(
      writer({
        schemes: { bearer: bearerScheme },
        requirements: requires("bearer"),
        admits: bearerAdmits("the-right-one"),
      }),
    );
    const run = await served.admin.createRun(lumenRun());
    const added = await served.admin.addAgent(run.run_id, {
      tag: "writer",
      a2a: { url: protectedAgent.url, credentials: { bearer: { bearer_token: BEARER } } },
    });
    const failed = await untilEvent(served.admin, run.run_id, "work_item.failed");
    expect(failed.reason).toBe(
      "The A2A agent answered SendStreamingMessage with HTTP 401 Unauthorized.",
    );
    expect(protectedAgent.refused[0]?.headers.authorization).toBe(`Bearer ${BEARER}`);
    const shown = await everythingShown(served, run.run_id, [added]);
    for (const secret of SECRETS) expect(shown).not.toContain(secret);
  });
});

describe("OAuth 2 client credentials", () => {
  async function oauthAgent(clock: () => number) {
    const tokens = await startTokenEndpoint({
      clientId: "lumen-service",
      clientSecret: CLIENT_SECRET,
      lifetimeS: 60,
      clock,
    });
    onClose(() => tokens.close());
    const scheme = {
      scheme: {
        $case: "oauth2SecurityScheme" as const,
        value: {
          description: "",
          oauth2MetadataUrl: "",
          flows: {
            flow: {
              $case: "clientCredentials" as const,
              value: {
                tokenUrl: tokens.url,
                refreshUrl: "",
                scopes: { "tasks:write": "Send tasks" },
              },
            },
          },
        },
      },
    };
    const protectedAgent = await agent(
      writer({
        schemes: { oauth: scheme },
        requirements: [{ schemes: { oauth: { list: ["tasks:write"] } } }],
        admits: (request) => tokens.admits(request),
      }),
    );
    return { tokens, protectedAgent };
  }
  const oauthCredentials = (secret = CLIENT_SECRET) => ({
    oauth: { client_id: "lumen-service", client_secret: secret },
  });

  it("fetches a token, keeps it while fresh, renews it once expired by the clock, and replaces one refused", async () => {
    const served = await service();
    const { tokens, protectedAgent } = await oauthAgent(served.clock.now);
    const register = async () => {
      const run = await served.admin.createRun(lumenRun());
      const added = await served.admin.addAgent(run.run_id, {
        tag: "writer",
        a2a: { url: protectedAgent.url, credentials: oauthCredentials() },
      });
      expect((await settled(served.admin, run.run_id)).status).toBe("completed");
      return { run, added };
    };
    const first = await register();
    expect(tokens.issued).toHaveLength(1);
    expect(tokens.requests[0]?.form).toEqual({
      grant_type: "client_credentials",
      scope: "tasks:write",
    });
    await register(); // within its lifetime: the same token
    expect(tokens.issued).toHaveLength(1);
    served.clock.advance(61_000); // expired: a new one before the request
    await register();
    expect(tokens.issued).toHaveLength(2);
    expect(protectedAgent.refused).toHaveLength(0);
    tokens.revokeAll(); // refused by the agent: a new one, once, and the request again
    const last = await register();
    expect(tokens.issued).toHaveLength(3);
    expect(protectedAgent.refused).toHaveLength(1);
    expect(protectedAgent.tasks).toHaveLength(4);
    const shown = await everythingShown(served, last.run.run_id, [first.added, last.added]);
    for (const secret of [...SECRETS, ...tokens.issued]) expect(shown).not.toContain(secret);
  });

  it("a wrong client secret fails the attempt with the token endpoint's HTTP 401, the secret unshown", async () => {
    const served = await service();
    const { protectedAgent, tokens } = await oauthAgent(served.clock.now);
    const run = await served.admin.createRun(lumenRun());
    const wrong = "wrong-client-secret-1234";
    await served.admin.addAgent(run.run_id, {
      tag: "writer",
      a2a: { url: protectedAgent.url, credentials: oauthCredentials(wrong) },
    });
    const failed = await untilEvent(served.admin, run.run_id, "work_item.failed");
    expect(failed.reason).toBe(
      `The service could not authenticate SendStreamingMessage to the A2A agent: The OAuth 2 token endpoint ${tokens.url} answered HTTP 401 (error "invalid_client"): check the client id and secret the agent was registered with.`,
    );
    expect(protectedAgent.tasks).toHaveLength(0);
    const shown = await everythingShown(served, run.run_id, []);
    expect(shown).not.toContain(wrong);
    expect(
      ofType(await events(served.admin, run.run_id), "work_item.failed").length,
    ).toBeGreaterThan(0);
  });
});

describe("where credentials go", () => {
  const keyInQuery = (card: Record<string, unknown>) => ({
    ...card,
    // A2A 1.0 JSON, as the specification writes it.
    securitySchemes: { key: { apiKeySecurityScheme: { location: "query", name: "api_key" } } },
    securityRequirements: [{ schemes: { key: { list: [] } } }],
  });

  it("follows a redirect within the agent's origin with them, and never one to another origin", async () => {
    const served = await service();
    const elsewhere = await hostile({ name: "Elsewhere" });
    let sends = 0;
    const moving = await hostile({
      card: keyInQuery,
      answer: ({ method }) => {
        if (method !== "SendMessage") return { status: 404 };
        sends += 1;
        if (sends === 1) return { status: 307, headers: { location: "/moved" } };
        if (sends === 2) {
          return {
            result: {
              task: taskJson("t-1", "TASK_STATE_COMPLETED", [
                { text: "# Lumen", mediaType: "text/markdown" },
              ]),
            },
          };
        }
        return { status: 307, headers: { location: `${elsewhere.url}/a2a` } };
      },
    });
    const credentials = { key: { api_key: API_KEY } };
    const first = await served.admin.createRun(lumenRun());
    await served.admin.addAgent(first.run_id, {
      tag: "moving",
      a2a: { url: moving.url, credentials },
    });
    expect((await settled(served.admin, first.run_id)).status).toBe("completed");
    expect(moving.seen.map((request) => request.url)).toEqual([
      `/?api_key=${API_KEY}`,
      `/moved?api_key=${API_KEY}`,
    ]);

    const second = await served.admin.createRun(lumenRun());
    await served.admin.addAgent(second.run_id, {
      tag: "moving",
      a2a: { url: moving.url, credentials },
    });
    const failed = await untilEvent(served.admin, second.run_id, "work_item.failed");
    expect(failed.reason).toBe(
      "The A2A agent answered SendMessage with HTTP 307 Temporary Redirect.",
    );
    expect(elsewhere.seen).toEqual([]);
  });
});

describe("a failure's reason", () => {
  it("shows a credential the agent's answer quotes as redacted", async () => {
    const served = await service();
    const echoing = await hostile({
      card: (card) => ({
        ...card,
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: "Bearer" } } },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      }),
      answer: (request) =>
        rpcError(request, -32001, `The token ${BEARER} (${encodeURIComponent(BEARER)}) is revoked`),
    });
    const run = await served.admin.createRun(lumenRun());
    const added = await served.admin.addAgent(run.run_id, {
      tag: "echoing",
      a2a: { url: echoing.url, credentials: { bearer: { bearer_token: BEARER } } },
    });
    const failed = await untilEvent(served.admin, run.run_id, "work_item.failed");
    expect(failed.reason).toBe(
      "The A2A agent answered SendMessage with JSON-RPC error -32001: The token [redacted: a2a-credential] ([redacted: a2a-credential]) is revoked.",
    );
    expect(echoing.seen[0]?.headers.authorization).toBe(`Bearer ${BEARER}`);
    const shown = await everythingShown(served, run.run_id, [added]);
    expect(shown).toContain("[redacted: a2a-credential]");
    expect(shown).not.toContain(BEARER);
  });
});

describe("the agent behind a bearer token of docs/a2a.md", () => {
  it("refuses requests without its token, and does the work of a service registered with it", async () => {
    const served = await service();
    const token = "illustrator-token-Rg5sYt2Lq8";
    const printed = example("a2a-agent-bearer.ts", { PORT: "0", AGENT_TOKEN: token });
    const started = await waitFor("the agent's URL", printed, (text) => text.includes("\n"));
    const url =
      /^A2A agent "Illustrator" on (http:\/\/127\.0\.0\.1:\d+), behind a bearer token\n$/.exec(
        started,
      )?.[1];
    expect(url).toBeDefined();
    const anonymous = await fetch(`${url}/`, { method: "POST", body: "{}" });
    expect(anonymous.status).toBe(401);

    const stage = {
      id: "illustrate",
      stage_description: "Draw the launch illustration",
      expected_output: "Markdown",
      available_skills: ["illustration"],
    };
    const run = await served.admin.createRun(lumenRun({ stages: [stage] }));
    const refused = await refusal(
      served.admin.addAgent(run.run_id, { tag: "illustrator", a2a: { url: url ?? "" } }),
    );
    expect(refused.code).toBe("AGENT_CREDENTIALS_MISSING");
    const added = await served.admin.addAgent(run.run_id, {
      tag: "illustrator",
      a2a: { url: url ?? "", credentials: { bearer: { bearer_token: token } } },
    });
    expect(added.a2a?.stages).toEqual(["illustrate"]);
    expect((await settled(served.admin, run.run_id)).status).toBe("completed");
    const shown = await everythingShown(served, run.run_id, [added, refused]);
    expect(shown).toContain("For: Launch Lumen, a reading lamp");
    expect(shown).not.toContain(token);
  });
});
