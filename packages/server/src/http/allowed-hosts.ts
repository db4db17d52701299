import { ArgumentError } from "@task-context/core";

/**
 * Parses `TASK_CONTEXT_ALLOWED_HOSTS`: a comma-separated list of the host names (no scheme, no
 * port; IPv6 in brackets) that MCP requests may be addressed to, e.g. `tc.example.com,localhost`.
 * Undefined or empty → undefined (the entry's default).
 */
export function parseAllowedHosts(text: string | undefined): string[] | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  return requireHostNames(
    "TASK_CONTEXT_ALLOWED_HOSTS",
    text.split(",").map((entry) => entry.trim()),
  );
}

/** `names` as host names without scheme or port, or an `ArgumentError` naming `argument`. */
export function requireHostNames(argument: string, names: unknown): string[] {
  const valid = (name: unknown) =>
    typeof name === "string" &&
    (/^\[[0-9a-f:.]+\]$/i.test(name) || /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(name));
  if (!Array.isArray(names) || names.length === 0 || !names.every(valid)) {
    throw new ArgumentError({
      argument,
      message: `expected host names without scheme or port, such as tc.example.com, localhost or [::1], got ${JSON.stringify(names)}.`,
    });
  }
  return names.map((name: string) => name.toLowerCase());
}

/**
 * The loopback host names, as the MCP SDK's DNS-rebinding guard allows them
 * (`localhostAllowedHostnames()`; a test holds the two equal). Written here, not imported: the
 * app imports this module at startup, and the SDK is loaded only by the first request to `/mcp`.
 */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The hosts a server listening on `listening` answers MCP requests for by default (the Node
 * entry's, as Workers are reached by their own host only): the loopback names, and that address
 * when it is a specific one.
 */
export function defaultAllowedHosts(listening: string): string[] {
  const loopback = [...LOOPBACK_HOSTS];
  const own = listening.includes(":") ? `[${listening}]` : listening;
  const wildcard = listening === "0.0.0.0" || listening === "::" || listening === "";
  return wildcard || loopback.includes(own) ? loopback : [...loopback, own.toLowerCase()];
}
