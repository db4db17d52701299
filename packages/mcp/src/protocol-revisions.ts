import {
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  PROTOCOL_VERSION_META_KEY,
  UnsupportedProtocolVersionError,
} from "@modelcontextprotocol/server";

/** The first revision of the stateless core: no `initialize`, the client named in each request's `_meta`. */
export const STATELESS_REVISION = "2026-07-28";

/**
 * The request methods of the 2026-07-28 revision, as the MCP SDK's registry for it lists them.
 * It removed `initialize`, `ping`, `logging/setLevel`, `resources/subscribe` and
 * `resources/unsubscribe` (`subscriptions/listen` replaced the last two); a server answers them
 * as any method it does not have: `-32601 Method not found`, over HTTP with a 404.
 */
const STATELESS_METHODS: ReadonlySet<string> = new Set([
  "tools/call",
  "tools/list",
  "prompts/get",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "completion/complete",
  "server/discover",
  "subscriptions/listen",
]);

/** The 2025-era revisions: a connection negotiates one of them with `initialize`. */
const HANDSHAKE_REVISIONS: ReadonlySet<string> = new Set([
  "2024-11-05",
  "2025-03-26",
  "2025-06-18",
  "2025-11-25",
]);

/**
 * The revision a request claims in its `_meta` (`io.modelcontextprotocol/protocolVersion`, as
 * every request of the stateless revision carries it), or undefined for a request without the
 * claim: one of a 2025-era connection, whose revision `initialize` negotiated.
 */
export function claimedRevision(params: unknown): unknown {
  if (typeof params !== "object" || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  return (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY];
}

/**
 * Whether `method` is a request method of the revision a request with `params` claims. A
 * request without a claim belongs to a 2025-era connection, whose revisions have every method
 * the servers check. A claim that names no revision this knows (`"v999"`, a number) has no
 * methods here: the SDK answers it (unsupported protocol version).
 */
export function revisionHasMethod(params: unknown, method: string): boolean {
  const revision = claimedRevision(params);
  if (revision === undefined) return true;
  if (revision === STATELESS_REVISION) return STATELESS_METHODS.has(method);
  return typeof revision === "string" && HANDSHAKE_REVISIONS.has(revision);
}

/**
 * The answer to a request that claims a revision this server does not serve (`"v999.0.0"`):
 * `-32022 Unsupported protocol version`, the supported revisions and the requested one in
 * `data`, as the SDK's HTTP entry answers it. Over stdio the SDK checks the claim only while a
 * connection opens; once it serves the stateless revision, this check answers the later requests
 * that claim another. Undefined for a request without a claim or with a known one.
 */
export function unsupportedRevisionAnswer(message: unknown): JSONRPCErrorResponse | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const revision = claimedRevision(message.params);
  if (revision === undefined || revision === STATELESS_REVISION) return undefined;
  if (typeof revision === "string" && HANDSHAKE_REVISIONS.has(revision)) return undefined;
  const requested = typeof revision === "string" ? revision : JSON.stringify(revision);
  const {
    code,
    message: text,
    data,
  } = new UnsupportedProtocolVersionError({
    supported: [STATELESS_REVISION],
    requested,
  });
  return { jsonrpc: "2.0", id: message.id, error: { code, message: text, data } };
}
