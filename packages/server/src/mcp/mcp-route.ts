import type { Context } from "hono";
import type { ServiceContext } from "../execution/service-context.ts";
import type { App, AppEnv } from "../http/app-env.ts";
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
  let loading: Promise<McpEndpoint> | undefined;
  const endpoint = (): Promise<McpEndpoint> => {
    loading ??= import("./mcp-endpoint.ts").then(
      ({ mcpEndpoint }) => mcpEndpoint(service, allowed, onUnexpectedError),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  app.all("/mcp", async (c) => (await endpoint())(c));
}
