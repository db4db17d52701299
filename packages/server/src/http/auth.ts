import { sha256Hex } from "@task-context/core/internal";
import type { Context } from "hono";
import { DeliveryError, runNotFound } from "../delivery/delivery-error.ts";
import type { AgentIdentity, DeliveryStore } from "../delivery/delivery-store.ts";
import { constantTimeEqual, parseAgentToken } from "../delivery/ids.ts";
import type { AuthenticatedToken } from "./rate-limit.ts";
import { TOKEN_HASHES_KEPT, tokenHashes } from "./token-hashes.ts";

/**
 * Who sent a request: the admin or an agent, from its bearer token; or a viewer, from a view
 * link's `?view=` token (read-only, one run; only the routes that take view links accept it).
 */
export type Caller =
  | { role: "admin" }
  | { role: "agent"; runId: string; agent: AgentIdentity }
  | { role: "viewer"; runId: string; canRequeue: boolean };

/** How requests are authenticated. */
export interface AuthOptions {
  /** The admin token (`TASK_CONTEXT_ADMIN_TOKEN`): creates runs and agents, reads everything. */
  adminToken: string;
}

/** The bearer token of a request, or undefined. */
export function bearerToken(c: Context): string | undefined {
  const header = c.req.header("Authorization");
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

const unauthorized = (message: string) => new DeliveryError({ code: "UNAUTHORIZED", message });

/** Who a request's bearer token authenticates, once per request. */
export interface Authenticator {
  /** The caller of the request; 401 `UNAUTHORIZED` without a token or with one that is not valid. */
  authenticate(c: Context): Promise<Caller>;
  /**
   * The request's token if it authenticates (its SHA-256 and caller), otherwise undefined: what
   * the rate limit counts a token by. Never throws for a bad token.
   */
  authenticatedToken(c: Context): Promise<AuthenticatedToken | undefined>;
}

/**
 * Resolves the caller of a request: the admin, or an agent of one run. Tokens are compared as
 * SHA-256 hashes in constant time; an agent token names its run and agent, so its stored hash is
 * read by key. Each request is authenticated once, however many times it is asked (the rate
 * limit, then the route).
 */
export function createAuthenticator(
  store: DeliveryStore,
  { adminToken }: AuthOptions,
): Authenticator {
  const adminHash = sha256Hex(adminToken);
  const hashes = tokenHashes(TOKEN_HASHES_KEPT, sha256Hex);
  const verify = async (c: Context): Promise<AuthenticatedToken> => {
    const token = bearerToken(c);
    if (token === undefined) {
      throw unauthorized(
        "This endpoint needs a token: send Authorization: Bearer <token> (the admin token, or an agent token from POST /v1/runs/{run_id}/agents).",
      );
    }
    const hash = await hashes.hash(token);
    if (constantTimeEqual(hash, await adminHash)) {
      hashes.keep(token, hash);
      return { sha256: hash, caller: { role: "admin" } };
    }
    const parsed = parseAgentToken(token);
    const agent =
      parsed === undefined ? undefined : await store.findAgent(parsed.runId, parsed.agentId);
    if (parsed === undefined || agent === undefined || !constantTimeEqual(hash, agent.token_hash)) {
      throw unauthorized(
        "The token is not valid. Use the admin token or an agent token as it was returned when the agent was added.",
      );
    }
    hashes.keep(token, hash);
    return {
      sha256: hash,
      caller: {
        role: "agent",
        runId: parsed.runId,
        agent: { agent_id: agent.agent_id, tag: agent.tag },
      },
    };
  };
  const verified = new WeakMap<Context, Promise<AuthenticatedToken>>();
  const once = (c: Context) => {
    let outcome = verified.get(c);
    if (outcome === undefined) {
      outcome = verify(c);
      outcome.catch(() => {}); // whoever asks sees the refusal; nobody has to ask
      verified.set(c, outcome);
    }
    return outcome;
  };
  return {
    authenticate: async (c) => (await once(c)).caller,
    authenticatedToken: async (c) =>
      bearerToken(c) === undefined ? undefined : once(c).catch(() => undefined),
  };
}

/** The run a caller may act on: any run for the admin, only its own for an agent. */
export function requireRunAccess(caller: Caller, runId: string): void {
  if (caller.role !== "admin" && caller.runId !== runId) {
    // The same answer as for a run that does not exist: a token reveals nothing about other runs.
    throw runNotFound(runId);
  }
}

/** Admin-only endpoints. */
export function requireAdmin(caller: Caller): void {
  if (caller.role !== "admin") {
    throw new DeliveryError({
      code: "FORBIDDEN",
      message:
        "Only the admin token may do this. Agents claim, heartbeat, complete and fail work items.",
    });
  }
}

/** Agent-only endpoints: the caller's run and identity. */
export function requireAgent(caller: Caller): { runId: string; agent: AgentIdentity } {
  if (caller.role !== "agent") {
    throw new DeliveryError({
      code: "FORBIDDEN",
      message:
        "This endpoint acts for an agent: use an agent token from POST /v1/runs/{run_id}/agents.",
    });
  }
  return caller;
}
