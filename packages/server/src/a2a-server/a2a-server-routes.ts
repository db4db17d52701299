import type { ServiceContext } from "../execution/service-context.ts";
import type { App } from "../http/app-env.ts";
import { loadOnce } from "../http/load-once.ts";
import type { A2aServerEndpoint } from "./a2a-server-endpoint.ts";
import type { A2aServerOptions } from "./client-tokens.ts";

/**
 * The routes of the service as an A2A agent, as `METHOD path`: A2A's own protocol beside the
 * service's contract (as `/mcp` is MCP's), so not operations of the OpenAPI document.
 */
export const A2A_SERVER_ROUTES = ["GET /.well-known/agent-card.json", "POST /a2a"] as const;

/**
 * The service as an A2A 1.0 agent on its Hono app: its card at `/.well-known/agent-card.json`
 * (public) and JSON-RPC at `POST /a2a` (the admin token, and the client tokens of `options`).
 * The A2A SDK is loaded on the first request to either, not when the app is built: a Worker's
 * isolate that never serves them never evaluates it (as `/mcp` loads the MCP SDK).
 */
export function a2aServerRoutes(
  app: App,
  service: ServiceContext,
  adminToken: string,
  options: A2aServerOptions = {},
): void {
  const endpoint = loadOnce<A2aServerEndpoint>(async () => {
    const { a2aServerEndpoint } = await import("./a2a-server-endpoint.ts");
    return a2aServerEndpoint(service, adminToken, options);
  });
  // The SDK's AGENT_CARD_PATH, written out: a search for a path finds its route.
  app.get("/.well-known/agent-card.json", async (c) => (await endpoint()).card(c));
  app.post("/a2a", async (c) => (await endpoint()).rpc(c));
}
