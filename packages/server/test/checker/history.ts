// What the checker records: every operation a client invoked and the answer it got (or that it
// got none: the server died under it), the crashes it simulated and the server's restarts.

import type { DeadLetter, RunView } from "@task-context/contract";
import type { Artifact, CollaborationEvent } from "@task-context/protocols";
import type { ReceivedFrame } from "../sse/follow.ts";

/** The operations of the contract the checker's clients invoke. */
export type Action =
  | "claim-next"
  | "claim"
  | "heartbeat"
  | "complete"
  | "fail"
  | "dead-letters"
  | "requeue"
  | "run";

/**
 * Why a client sent an operation: its normal work, a retry after an answer that never came, or
 * one of the faults the checker injects.
 */
export type Intent =
  /** The client's work: claim, heartbeat, complete or fail its own lease. */
  | "work"
  /** A duplicate completion: the same key and body. */
  | "same-key"
  /** A duplicate completion: another key, the same body. */
  | "other-key"
  /** A duplicate completion: the same key, another body. */
  | "other-body"
  /** A duplicate completion with another key, sent after the lease expired. */
  | "late"
  /** A completion of an attempt whose lease expired and was claimed by another agent since. */
  | "stale"
  /** The claim of an item whose lease expired under a stale holder, by another agent. */
  | "steal"
  /** Failing an item on purpose until it is dead-lettered. */
  | "poison"
  /** Failing a lease at the same moment as every other agent (a retry storm). */
  | "storm"
  /** The admin's bookkeeping: reading the run and its dead letters, requeueing them. */
  | "admin";

/** One operation: what was invoked, when, and what came back. */
export interface Operation {
  /** Position in the history (order of completion). */
  index: number;
  /** The agent's tag, or "admin". */
  process: string;
  /** With several server instances: the one the request went to (0-based). */
  instance?: number;
  action: Action;
  intent: Intent;
  /** Sent again, unchanged (same Idempotency-Key and body), because an earlier try got no answer. */
  retry?: true;
  workItemId?: string;
  /** The attempt the request names (heartbeat, complete, fail). */
  attempt?: number;
  idempotencyKey?: string;
  /** The artifact content or review summary sent (complete). */
  content?: string;
  /** Invocation and completion, in milliseconds of a monotonic clock. */
  start: number;
  end: number;
  /** The HTTP status, or "unknown" when no answer came (the operation may or may not have happened). */
  status: number | "unknown";
  /** The error code of a 4xx/5xx answer. */
  code?: string;
  /** The JSON answer. */
  body?: unknown;
}

/** An agent that stopped working on its lease without completing or failing it. */
export interface Crash {
  process: string;
  workItemId: string;
  attempt: number;
  /** When it stopped (the monotonic clock of the operations). */
  at: number;
}

/** A restart of the server process. */
export interface Restart {
  signal: "SIGKILL" | "SIGTERM";
  /** With several server instances: the one restarted (0-based). */
  instance?: number;
  /** When it was killed, and when the new process listened (the monotonic clock). */
  killedAt: number;
  upAt: number;
  /** The same two instants in milliseconds since the epoch (the clock of the events' `at`). */
  killedAtEpoch: number;
  upAtEpoch: number;
}

/** A fault injected into the database under the service (see postgres-chaos.ts). */
export interface Fault {
  /** What was done, as a sentence ("terminated 9 of the service's connections"). */
  what: string;
  /** When it began and ended (the monotonic clock of the operations). */
  start: number;
  end: number;
}

/** Everything the clients saw. */
export interface History {
  operations: Operation[];
  crashes: Crash[];
  restarts: Restart[];
  /** The faults injected into the database (none unless a disruption ran). */
  faults: Fault[];
}

/** The state read after the run, with the event stream as a real SSE client received it. */
export interface FinalState {
  run: RunView;
  /** Every event as JSON pages. */
  events: CollaborationEvent[];
  /** Every frame as the SSE client dispatched it, across disconnections and restarts. */
  streamed: ReceivedFrame[];
  /** The artifact of every artifact.created event. */
  artifacts: Artifact[];
  deadLetters: DeadLetter[];
  /** What the server wrote to stderr (unexpected errors). */
  serverErrors: string;
}
