import { createMcpHandler, isLegacyRequest } from "@modelcontextprotocol/server";
import { requireObject, requireWholeNumber } from "@task-context/core/internal";
import type { ContextChanges } from "./context-changes.ts";
import { createTaskContextServer } from "./create-task-context-server.ts";
import { dnsRebindingRefusal, localhostNames, requireHostNames } from "./dns-rebinding-guard.ts";
import { legacySessions } from "./legacy-sessions.ts";
import { CONTEXT_MD_URI } from "./resource-uris.ts";
import type { TaskContextServerOptions } from "./task-context-server-options.ts";

/** Options of {@link createTaskContextHttpHandler}. */
export interface TaskContextHttpHandlerOptions
  extends Omit<TaskContextServerOptions, "era" | "subscribable"> {
  /**
   * Tells the handler when CONTEXT.md changed (such as `watchTaskContext(directory)`): with it,
   * the server offers subscriptions and notifies subscribers on both protocol eras. Subscribed
   * for as long as the handler is open.
   */
  changes?: ContextChanges | undefined;
  /**
   * The host names requests may be addressed to (the `Host` header, any port; IPv6 in brackets).
   * Default: `localhost`, `127.0.0.1`, `[::1]`. Anything else gets a 403 (DNS rebinding).
   */
  allowedHosts?: readonly string[] | undefined;
  /**
   * The host names of the browser origins (`Origin`) that may call. Default: `localhost`,
   * `127.0.0.1`, `[::1]`. Requests without an `Origin` (every non-browser client) pass.
   */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * The most 2025-era sessions kept open at once (default 100); a new one closes the least
   * recently used, whose client then starts a new session.
   */
  maxSessions?: number | undefined;
}

/** What {@link createTaskContextHttpHandler} returns: a fetch handler to mount. */
export interface TaskContextHttpHandler {
  /** Answers one HTTP request (POST, GET and DELETE of Streamable HTTP), on any path. */
  fetch(request: Request): Promise<Response>;
  /** How many 2025-era sessions are open. */
  readonly sessionCount: number;
  /** Ends every session and stream, and stops listening to `changes`. */
  close(): Promise<void>;
}

/**
 * The workspace server over Streamable HTTP, as one web-standard fetch handler to mount on any
 * server (`@hono/node-server`, `Bun.serve`, `Deno.serve`, a Worker):
 *
 * - **Both protocol eras.** 2026-07-28 requests go to the SDK's `createMcpHandler` (one instance
 *   per request; CONTEXT.md changes reach `subscriptions/listen` streams). 2025-era clients get
 *   sessions (`Mcp-Session-Id`): `resources/subscribe` and `resources/unsubscribe` work, and
 *   `notifications/resources/updated` arrives on the session's `GET` stream. The server
 *   advertises subscriptions exactly when `changes` is given, on both eras.
 * - **DNS-rebinding protection.** A `Host` or `Origin` that is not allowed (loopback by
 *   default; `allowedHosts`, `allowedOrigins`) is refused with a 403 and a JSON-RPC error that
 *   names it, before anything is read — as the MCP SDK's `hostHeaderValidationResponse` and
 *   `originValidationResponse` check them.
 *
 * @throws {ArgumentError} when an option has the wrong type.
 *
 * @example
 * ```ts source="../examples/http.ts#createTaskContextHttpHandler"
 * const handler = createTaskContextHttpHandler({
 *   workspace: nodeWorkspace(directory),
 *   changes: watchTaskContext(directory),
 * });
 * const server = serve({ fetch: handler.fetch, hostname: "127.0.0.1", port });
 * // An MCP client connects to http://127.0.0.1:3000/mcp (the handler answers any path).
 * ```
 */
export function createTaskContextHttpHandler(
  options: TaskContextHttpHandlerOptions,
): TaskContextHttpHandler {
  requireObject("options", options);
  const { allowedHosts, allowedOrigins, maxSessions, changes, ...serverOptions } = options;
  const localhost = localhostNames();
  const allowed = {
    hosts: requireHostNames("options.allowedHosts", allowedHosts, () => [...localhost.hosts]),
    origins: requireHostNames("options.allowedOrigins", allowedOrigins, () => [
      ...localhost.origins,
    ]),
  };
  const sessionLimit = requireWholeNumber("options.maxSessions", maxSessions ?? 100, 1);
  // Checks the server's options once, before the first request.
  createTaskContextServer({ ...serverOptions, changes });

  const modern = createMcpHandler(
    () =>
      createTaskContextServer({
        ...serverOptions,
        era: "modern",
        subscribable: changes !== undefined,
      }),
    { legacy: "reject" },
  );
  const stopNotifying = changes?.subscribe(() => modern.notify.resourceUpdated(CONTEXT_MD_URI));
  const legacy = legacySessions(
    () => createTaskContextServer({ ...serverOptions, changes, era: "legacy" }),
    { maxSessions: sessionLimit },
  );

  return {
    async fetch(request) {
      const refused = dnsRebindingRefusal(request, allowed);
      if (refused !== undefined) return refused;
      return (await isLegacyRequest(request)) ? legacy.handle(request) : modern.fetch(request);
    },
    get sessionCount() {
      return legacy.size;
    },
    async close() {
      stopNotifying?.();
      await legacy.close();
      await modern.close();
    },
  };
}
