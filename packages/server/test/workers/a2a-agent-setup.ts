// Global setup of the workerd suites (runs in Node): a real A2A agent (the official SDK's server)
// on loopback, for the run objects to dispatch to, and the agent cards every runtime must refuse
// (../a2a/card-hosts.ts). Their URLs reach the tests by inject().
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { startA2aAgent } from "../a2a/a2a-agent.ts";
import { startCardHosts } from "../a2a/card-hosts.ts";
import { startHostileAgent, taskJson } from "../a2a/hostile-agent.ts";
import { movingCard } from "../a2a/moving-card.ts";
import { pushSender, type SentNotification } from "../a2a/push-sender.ts";
import { startTokenEndpoint } from "../a2a/token-endpoint.ts";

/** The client secret of the OAuth-guarded agent's client. */
const OAUTH_SECRET = "edge-client-s3cret-Kp4v";

declare module "vitest" {
  export interface ProvidedContext {
    a2aAgentUrl: string;
    /** An agent whose every task completes with a 2 MiB text artifact, over the 1 MiB limit. */
    a2aBulkyUrl: string;
    /** An agent whose every task completes with a 20 MB text artifact (read up to 4 MiB only). */
    a2aHugeUrl: string;
    /** An agent that answers every request with HTTP 401. */
    a2aLockedUrl: string;
    /**
     * An agent behind OAuth 2 client credentials (its card's tokenUrl: a token endpoint on
     * loopback), for the client `edge` and the secret `a2aOAuthSecret`.
     */
    a2aOAuthUrl: string;
    a2aOAuthSecret: string;
    /** An agent that speaks A2A 0.3 only (the official SDK's 0.3 layer), over JSON-RPC. */
    a2a03Url: string;
    /**
     * An agent whose card offers push notifications; its SDK sender records each notification
     * instead of delivering it (workerd has no address here), listed as JSON at `a2aPushSentUrl`.
     */
    a2aPushUrl: string;
    a2aPushSentUrl: string;
    /**
     * An agent whose card names an interface where nothing listens when first read (at its
     * registration), and the Edge writer's interface at every later read: it moved.
     */
    a2aMoverUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const agent = await startA2aAgent({
    name: "Edge writer",
    skills: [{ id: "web_search" }, { id: "write_file" }, { id: "read_file" }],
    // A Durable Object's alarm polls tasks/get; the card may offer streaming all the same.
    streaming: true,
  });
  const bulky = await completingWith("Bulky", 2 * 1024 * 1024);
  const huge = await completingWith("Huge", 20_000_000);
  const locked = await startHostileAgent({
    name: "Locked",
    skills: ["web_search", "write_file", "read_file"],
    answer: () => ({ status: 401, statusText: "Unauthorized", body: "" }),
  });
  const hosts = await startCardHosts();
  const tokens = await startTokenEndpoint({
    clientId: "edge",
    clientSecret: OAUTH_SECRET,
    lifetimeS: 3600,
    clock: Date.now,
  });
  const oauth = await startA2aAgent({
    name: "Edge guarded",
    skills: [{ id: "web_search" }, { id: "write_file" }, { id: "read_file" }],
    security: {
      schemes: {
        oauth: {
          scheme: {
            $case: "oauth2SecurityScheme",
            value: {
              description: "",
              oauth2MetadataUrl: "",
              flows: {
                flow: {
                  $case: "clientCredentials",
                  value: { tokenUrl: tokens.url, refreshUrl: "", scopes: {} },
                },
              },
            },
          },
        },
      },
      requirements: [{ schemes: { oauth: { list: [] } } }],
      admits: (request) => tokens.admits(request),
    },
  });
  const a2a03 = await startA2aAgent({
    name: "Edge 0.3 writer",
    skills: [{ id: "web_search" }, { id: "write_file" }, { id: "read_file" }],
    a2a03: { transport: "JSONRPC" },
  });
  const sent: SentNotification[] = [];
  const pushing = await startA2aAgent({
    name: "Edge pusher",
    skills: [{ id: "web_search" }, { id: "write_file" }, { id: "read_file" }],
    streaming: false,
    push: pushSender("lose", sent),
  });
  const sentList = createServer((_request, response) => {
    response.setHeader("content-type", "application/json").end(JSON.stringify(sent));
  });
  await new Promise<void>((resolve) => sentList.listen(0, "127.0.0.1", resolve));
  const sentPort = (sentList.address() as AddressInfo).port;
  project.provide("a2aPushUrl", pushing.url);
  project.provide("a2aPushSentUrl", `http://127.0.0.1:${sentPort}`);
  const mover = await startA2aAgent({
    name: "Edge mover",
    skills: [{ id: "web_search" }, { id: "write_file" }, { id: "read_file" }],
    card: movingCard("http://127.0.0.1:9/", () => `${agent.url}/`),
  });
  project.provide("a2aMoverUrl", mover.url);
  project.provide("a2aAgentUrl", agent.url);
  project.provide("a2a03Url", a2a03.url);
  project.provide("a2aBulkyUrl", bulky.url);
  project.provide("a2aHugeUrl", huge.url);
  project.provide("a2aLockedUrl", locked.url);
  project.provide("a2aCardHosts", hosts.urls);
  project.provide("a2aOAuthUrl", oauth.url);
  project.provide("a2aOAuthSecret", OAUTH_SECRET);
  return async () => {
    await Promise.all(
      [agent, bulky, huge, locked, hosts, oauth, tokens, a2a03, pushing, mover].map((server) =>
        server.close(),
      ),
    );
    await new Promise((resolve) => sentList.close(resolve));
  };
}

/** A polled agent whose every task completes with a text artifact of `bytes` characters. */
function completingWith(name: string, bytes: number) {
  const text = "x".repeat(bytes);
  return startHostileAgent({
    name,
    skills: ["web_search", "write_file", "read_file"],
    answer: ({ method }) => ({
      result:
        method === "SendMessage"
          ? { task: taskJson(`${name}-1`, "TASK_STATE_SUBMITTED") }
          : taskJson(`${name}-1`, "TASK_STATE_COMPLETED", [{ text, mediaType: "text/plain" }]),
    }),
  });
}
