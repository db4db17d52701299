import { refusedName } from "@task-context/mcp/internal";
import type { Context } from "hono";
import { DeliveryError } from "../delivery/delivery-error.ts";

/** Which hosts and browser origins may reach `/mcp`. */
export interface McpAllowedNames {
  /**
   * Host names (no port) a request may be addressed to; undefined: any (on Workers, the platform
   * routes a request to the Worker by its host, so a host that reached it is the Worker's).
   */
  hosts: readonly string[] | undefined;
  /** The origins of `cors`, whose pages may call too. */
  corsOrigins: readonly string[];
}

const refusedError = (message: string) => new DeliveryError({ code: "HOST_NOT_ALLOWED", message });

/**
 * The DNS-rebinding check of `/mcp`, the workspace MCP server's (`refusedName`, with the MCP
 * SDK's own validators): a `Host` that is not an allowed name, or a browser's `Origin` whose host
 * is neither an allowed host (a page of the service itself) nor one of the CORS origins', is
 * refused with 403 `HOST_NOT_ALLOWED`, before the token is checked. A request without `Origin`
 * (every client that is not a browser page) passes that part.
 */
export function requireAllowedHost(c: Context, allowed: McpAllowedNames): void {
  const ownHost = new URL(c.req.url).hostname;
  const originHosts = [
    ...(allowed.hosts ?? [ownHost]),
    ...allowed.corsOrigins.map((origin) => new URL(origin).hostname),
  ];
  const refused = refusedName(c.req.raw.headers, allowed.hosts, originHosts);
  if (refused?.header === "Host") {
    const named =
      refused.name === undefined
        ? "The request has no Host header"
        : `Host ${JSON.stringify(refused.name)} is not allowed on /mcp`;
    throw refusedError(
      `${named}: this service answers MCP requests addressed to ${allowed.hosts?.join(", ")} only (protection against DNS rebinding). To serve it under another name, add the name to TASK_CONTEXT_ALLOWED_HOSTS.`,
    );
  }
  if (refused?.header === "Origin") {
    throw refusedError(
      `Origin ${JSON.stringify(refused.name)} is not allowed on /mcp: a browser page may call it only from this service's own host or from an origin in TASK_CONTEXT_CORS_ORIGINS (protection against DNS rebinding).`,
    );
  }
}
