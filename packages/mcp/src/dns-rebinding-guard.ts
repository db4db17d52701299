import {
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
} from "@modelcontextprotocol/server";
import { ArgumentError } from "@task-context/core";

/** Host and Origin names a local MCP server answers (with any port). */
export interface AllowedNames {
  /** Host names (no port; IPv6 in brackets, `[::1]`) a request may be addressed to. */
  hosts: readonly string[];
  /** Host names of the browser origins (`Origin`) that may call; requests without one pass. */
  origins: readonly string[];
}

/** The option `argument` as a list of host names, or `fallback` when it is not given. */
export function requireHostNames(
  argument: string,
  value: unknown,
  fallback: () => string[],
): readonly string[] {
  if (value === undefined) return fallback();
  if (
    !Array.isArray(value) ||
    value.some((name) => typeof name !== "string" || name === "" || /[\s/]/.test(name))
  ) {
    throw new ArgumentError({
      argument,
      message:
        'expected a list of host names without scheme or port, such as ["localhost", "mcp.example.com", "[::1]"].',
    });
  }
  return [...value];
}

/** Loopback only, as the SDK's helpers allow by default. */
export const localhostNames = (): AllowedNames => ({
  hosts: localhostAllowedHostnames(),
  origins: localhostAllowedOrigins(),
});

/** A 403 with a JSON-RPC error body (`id: null`): the request was refused before it was read. */
function forbidden(message: string): Response {
  return Response.json(
    { jsonrpc: "2.0", id: null, error: { code: -32000, message } },
    { status: 403 },
  );
}

/**
 * The header that makes a request refused under DNS-rebinding protection: `Host` (`name`: the
 * host it names, undefined when it has none) or `Origin` (`name`: the header as sent).
 */
export type RefusedName =
  | { header: "Host"; name: string | undefined }
  | { header: "Origin"; name: string };

/**
 * The DNS-rebinding check of an MCP server over HTTP, with the MCP SDK's own validators
 * (`validateHostHeader`, `validateOriginHeader`, as `hostHeaderValidationResponse` and
 * `originValidationResponse` use them): a `Host` whose name is not in `hosts` (any port;
 * `undefined`: any host), or an `Origin` whose host is not in `originHosts`, is refused. A
 * request without `Origin` (every client that is not a browser page) passes that part.
 * `undefined` when the request may proceed; each server says the refusal in its own words.
 */
export function refusedName(
  headers: Headers,
  hosts: readonly string[] | undefined,
  originHosts: readonly string[],
): RefusedName | undefined {
  if (hosts !== undefined) {
    const host = validateHostHeader(headers.get("host"), [...hosts]);
    if (!host.ok) {
      const name =
        host.errorCode === "missing_host" ? undefined : (host.hostname ?? host.hostHeader);
      return { header: "Host", name };
    }
  }
  const origin = headers.get("origin");
  if (!validateOriginHeader(origin, [...originHosts]).ok) {
    return { header: "Origin", name: String(origin) };
  }
  return undefined;
}

/**
 * The DNS-rebinding check of a local MCP server ({@link refusedName}): a `Host` that is not an
 * allowed name, or an `Origin` whose host is not, is refused with a 403 that says which name and
 * how to allow it. `undefined` when the request may proceed.
 */
export function dnsRebindingRefusal(request: Request, allowed: AllowedNames): Response | undefined {
  const refused = refusedName(request.headers, allowed.hosts, allowed.origins);
  if (refused === undefined) return undefined;
  if (refused.header === "Host") {
    const named =
      refused.name === undefined
        ? "The request has no Host header"
        : `Host ${JSON.stringify(refused.name)} is not allowed`;
    return forbidden(
      `${named}: this MCP server answers requests addressed to ${allowed.hosts.join(", ")} only (protection against DNS rebinding). To serve it under another name, add the name to allowedHosts.`,
    );
  }
  return forbidden(
    `Origin ${JSON.stringify(refused.name)} is not allowed: this MCP server answers browser pages from ${allowed.origins.join(", ")} only (protection against DNS rebinding). To allow a site, add its host name to allowedOrigins.`,
  );
}
