import type { SecretPolicy } from "@task-context/core";
import type { Context } from "hono";
import type { DeliveryStore } from "../delivery/delivery-store.ts";
import type { Caller } from "../http/auth.ts";
import type { RunFeeds, StreamTiming } from "../http/run-feeds.ts";
import type { ViewTokens } from "../page/view-token.ts";

/** How the app registers A2A agents (createApp's `a2a` option). */
export interface A2aOptions {
  /** Reads agent cards (default: the global `fetch`). */
  fetch?: typeof fetch;
  /** Told when an A2A agent was added to a run. */
  agentAdded?: (runId: string) => void;
  /**
   * Whether the service's dispatcher follows an A2A task on its stream when the card offers one
   * (default true, as `A2aDispatcher` does); false where it only polls tasks/get (a Durable
   * Object's alarm). The registration answer's `streaming` says what it will do.
   */
  streaming?: boolean;
  /**
   * Refuse every A2A agent whose card carries no signature that verifies, whatever its
   * registration says (`a2a.require_signature` asks it of one agent). Default false.
   */
  requireSignatures?: boolean;
}

/**
 * What an agent's operations need, whichever entry calls them (a route, an MCP tool, the A2A
 * dispatcher): the store, the clock and pace of waits, and the limits every entry holds a
 * request to.
 */
export interface AgentServices {
  store: DeliveryStore;
  timing: StreamTiming;
  /** Aborts when the server stops: long polls answer, streams end. */
  shutdown: AbortSignal | undefined;
  /** The largest request body, in bytes: a body of any entry is held to it. */
  bodyBytes: number;
}

/** What every operation's handler may use: the agent's services and the admin's. */
export interface ServiceContext extends AgentServices {
  /** The caller of an HTTP request, from its bearer token (401 without a valid one). */
  authenticate: (c: Context) => Promise<Caller>;
  /** What happens to secrets in a new run's goal, constraints and stage contexts. */
  secrets: SecretPolicy;
  /** Signs and checks view links' tokens. */
  viewTokens: ViewTokens;
  /** Registering A2A agents: how their cards are read, who is told of a new one. */
  a2a: A2aOptions;
  /** The runs' event streams: one reader per run, written to every follower. */
  feeds: RunFeeds;
}
