import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import type { Context } from "hono";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { ServiceContext } from "../execution/service-context.ts";
import type { AppEnv } from "../http/app-env.ts";
import { requireAgent } from "../http/auth.ts";
import { decodeUtf8Body } from "../http/utf8-body.ts";
import { anySignal } from "../http/wait.ts";
import { type McpAllowedNames, requireAllowedHost } from "./dns-rebinding.ts";
import { type AgentSession, registerOperationTools } from "./operation-tools.ts";
import { malformedParamsAnswer } from "./params-guard.ts";
import { registerRunContext } from "./run-context.ts";

/** The MCP server's name and version in its `initialize` answer. */
export const mcpServerInfo = { name: "task-context-delivery", version: "1.0.0" } as const;

/** A fresh MCP server for one request of one agent: the six tools and the run's context. */
export function agentMcpServer(session: AgentSession): McpServer {
  const server = new McpServer(mcpServerInfo, {
    instructions:
      "The task-context delivery service. Read the run's context resource first (goal, constraints, current stage), then poll_inbox or claim_work_item, heartbeat while you work, and complete_work_item or fail_work_item with the lease's attempt.",
  });
  registerOperationTools(server, session);
  registerRunContext(server, session);
  return server;
}

const sessionKey = "task-context.session";

/**
 * The request's JSON-RPC message checked before the SDK reads it: the answer to malformed params
 * (see `malformedParamsAnswer`), or the request to hand on (its body is read here once, so a new
 * request carries it). A body that is not UTF-8 is `INVALID_REQUEST`.
 */
async function guardParams(request: Request): Promise<Response | Request> {
  // Bytes that are not UTF-8 are refused here (400 INVALID_REQUEST), not replaced.
  const text = decodeUtf8Body(await request.arrayBuffer());
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    message = undefined; // The SDK answers -32700 Parse error.
  }
  const answer = malformedParamsAnswer(message);
  if (answer !== undefined) return Response.json(answer);
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: text,
    signal: request.signal,
  });
}

/**
 * What answers `/mcp` (see `mcpRoutes`, which loads this module on the first request): the
 * agent's side of the contract over MCP (Streamable HTTP, stateless: a fresh server per request,
 * no session to keep, so any instance — a Worker included — answers any request). The agent
 * token authenticates as on the HTTP routes (same 401/403 JSON answers, rate limits and body
 * limit, which the app applies before this route); the admin token is refused (403): every tool
 * acts for an agent.
 */
export function mcpEndpoint(
  service: ServiceContext,
  allowed: McpAllowedNames,
  onUnexpectedError: ((error: unknown) => void) | undefined,
): (c: Context<AppEnv>) => Promise<Response> {
  const handler = createMcpHandler(
    ({ authInfo, requestInfo }) => {
      const session = authInfo?.extra?.[sessionKey] as AgentSession | undefined;
      if (session === undefined) throw new Error("/mcp was reached without an agent session.");
      return agentMcpServer({
        ...session,
        signal: anySignal([session.signal, requestInfo?.signal]),
      });
    },
    // No `onerror`: the SDK reports a client's malformed message there too, which is not the
    // service's failure; a tool's unexpected failure reaches `onUnexpectedError` (toolError).
  );
  return async (c) => {
    requireAllowedHost(c, allowed);
    const { runId, agent } = requireAgent(await service.authenticate(c));
    if (c.req.method !== "POST") {
      // Stateless: no session whose stream a GET would open or a DELETE would end.
      c.header("Allow", "POST");
      throw new DeliveryError({
        code: "METHOD_NOT_ALLOWED",
        message: `${c.req.method} is not allowed on /mcp. Send MCP messages with POST; the service keeps no MCP session.`,
      });
    }
    const session: AgentSession = {
      service,
      caller: { role: "agent", runId, agent },
      signal: anySignal([c.req.raw.signal, service.shutdown]),
      ...(onUnexpectedError === undefined ? {} : { onUnexpectedError }),
    };
    const guarded = await guardParams(c.req.raw);
    if (guarded instanceof Response) return guarded;
    return handler.fetch(guarded, {
      authInfo: {
        token: "agent",
        clientId: agent.agent_id,
        scopes: [],
        extra: { [sessionKey]: session },
      },
    });
  };
}
