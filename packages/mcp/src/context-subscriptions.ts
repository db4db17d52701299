import type { McpServer } from "@modelcontextprotocol/server";
import type { ContextChanges } from "./context-changes.ts";
import { CONTEXT_MD_URI } from "./resource-uris.ts";

/**
 * Wires CONTEXT.md change notifications into one server instance.
 *
 * - 2025-era connections (`era: "legacy"`): `resources/subscribe` to the CONTEXT.md URI starts
 *   listening to `changes`; `resources/unsubscribe` stops. Nothing is sent unsolicited. A
 *   subscription to any other URI is accepted (`{}`, as the protocol's examples do) and never
 *   notifies: CONTEXT.md is the one resource the server watches.
 * - 2026-07-28 connections (`era: "modern"`): the instance listens while it is connected, and the
 *   serving entry delivers each update only on the `subscriptions/listen` streams that asked for it.
 *
 * The instance stops listening when it closes, so a client that disconnects leaves no listener
 * behind, and `changes` (one `fs.watch` for any number of clients) stops watching with the last.
 */
export function wireContextSubscriptions(
  server: McpServer,
  changes: ContextChanges,
  era: "legacy" | "modern",
): void {
  let stop: (() => void) | undefined;
  const start = () => {
    stop ??= changes.subscribe(() => {
      server.server.sendResourceUpdated({ uri: CONTEXT_MD_URI }).catch(() => {
        // The connection closed between the change and the notification: nothing to tell.
      });
    });
  };
  const end = () => {
    stop?.();
    stop = undefined;
  };

  server.server.setRequestHandler("resources/subscribe", (request) => {
    if (request.params.uri === CONTEXT_MD_URI) start();
    return {};
  });
  server.server.setRequestHandler("resources/unsubscribe", (request) => {
    if (request.params.uri === CONTEXT_MD_URI) end();
    return {};
  });

  const previousOnClose = server.server.onclose;
  server.server.onclose = () => {
    end();
    previousOnClose?.();
  };
  if (era === "modern") {
    const connect = server.connect.bind(server);
    server.connect = async (transport) => {
      await connect(transport);
      start();
    };
  }
}
