import type { Context } from "hono";
import type { ServiceContext } from "../execution/service-context.ts";
import type { App, AppEnv } from "../http/app-env.ts";
import { loadOnce } from "../http/load-once.ts";
import type { McpAllowedNames } from "./dns-rebinding.ts";

type McpEndpoint = (c: Context<AppEnv>) => Promise<Response>;

/**
 * `/mcp`: the agent's side of the contract over MCP (see `mcpEndpoint`). The MCP SDK and the
 * tools are loaded on the first request to `/mcp`, once per app: an isolate or process that
 * serves only the HTTP routes (a Worker's, a run's Durable Object) never evaluates them, so its
 * startup does not pay for them. A failed load fails that request (500) and the next one tries
 * again.
 */
export function mcpRoutes(
  app: App,
  service: ServiceContext,
  allowed: McpAllowedNames,
  onUnexpectedError: ((error: unknown) => void) | undefined,
): void {
  const endpoint = loadOnce<McpEndpoint>(async () => {
    const { mcpEndpoint } = await import("./mcp-endpoint.ts");
    return mcpEndpoint(service, allowed, onUnexpectedError);
  });
  app.all("/mcp", async (c) => (await endpoint())(c));
}
