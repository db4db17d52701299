import {
  isInitializeRequest,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";

/** The 2025-era Streamable HTTP sessions of one handler. */
export interface LegacySessions {
  /** Serves one 2025-era request: `initialize` opens a session, the others name theirs. */
  handle(request: Request): Promise<Response>;
  /** How many sessions are open. */
  readonly size: number;
  /** Closes every session. */
  close(): Promise<void>;
}

interface Session {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });
}

/** The body of a POST, when it is JSON (read from a copy: the request stays readable). */
async function jsonBody(request: Request): Promise<unknown> {
  if (request.method !== "POST") return undefined;
  return request
    .clone()
    .json()
    .catch(() => undefined);
}

/**
 * Session-ful Streamable HTTP for 2025-era clients, as the MCP SDK's examples wire it: each
 * `initialize` builds one server instance (`createServer`) on its own transport, which lives until
 * the client ends the session (`DELETE`) or `maxSessions` newer sessions push it out (the least
 * recently used goes first; its client gets 404 and starts a new session, as the protocol says).
 * A session's instance keeps its `resources/subscribe` state and sends
 * `notifications/resources/updated` on the session's `GET` stream.
 */
export function legacySessions(
  createServer: () => McpServer,
  { maxSessions }: { maxSessions: number },
): LegacySessions {
  /** Open sessions by id, least recently used first. */
  const sessions = new Map<string, Session>();

  const open = async (request: Request): Promise<Response> => {
    const server = createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { server, transport });
        for (const [oldest, session] of sessions) {
          if (sessions.size <= maxSessions) break;
          sessions.delete(oldest);
          void session.server.close().catch(() => {});
        }
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request);
  };

  return {
    get size() {
      return sessions.size;
    },
    async handle(request) {
      const id = request.headers.get("mcp-session-id");
      if (id !== null) {
        const session = sessions.get(id);
        if (session === undefined) {
          return jsonRpcError(
            404,
            -32001,
            "Session not found: it ended or was never opened. Start a new session with an initialize request.",
          );
        }
        // Most recently used last: the first entry is the one to push out.
        sessions.delete(id);
        sessions.set(id, session);
        return session.transport.handleRequest(request);
      }
      if (isInitializeRequest(await jsonBody(request))) return open(request);
      return jsonRpcError(
        400,
        -32000,
        "Bad Request: no Mcp-Session-Id header. Open a session with an initialize request, then send its Mcp-Session-Id header with every request.",
      );
    },
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((session) => session.server.close().catch(() => {})));
    },
  };
}
