// The delivery service's state machine: (run state, command, now) → the answer or the refusal,
// and the writes and events of the change. Pure: no I/O, no clock (now is given), no ids but the
// context's. Every command first expires the run's overdue leases; a refused command changes
// nothing at all (not even the expiries, which the next command makes again).

import type * as Contract from "@task-context/contract";
import { ArgumentError } from "@task-context/core";
import type { CollaborationEvent } from "@task-context/protocols";
import { DeliveryError, runNotFound } from "../delivery-error.ts";
import type { AgentIdentity, Completed, IdempotencyKey, StoredAgent } from "../delivery-store.ts";
import { addAgent } from "./add-agent.ts";
import { cancelRun, runCanceled } from "./cancel-run.ts";
import { type CardCheck, checkCard } from "./check-card.ts";
import { type Claimed, claim, claimNext } from "./claim.ts";
import { type Completion, complete } from "./complete.ts";
import { createRun, type NewRun, newRun } from "./create-run.ts";
import { Draft, type MachineContext } from "./draft.ts";
import { expireLeases } from "./expire-leases.ts";
import { fail } from "./fail.ts";
import { heartbeat } from "./heartbeat.ts";
import { requeue } from "./requeue.ts";
import type { ItemRecord, RunState } from "./run-state.ts";
import type { Write } from "./writes.ts";

/** Every command that changes a run, by its type. */
export interface Commands {
  createRun: NewRun;
  addAgent: { agent: StoredAgent };
  /** By id, or (undefined) the oldest offers: up to `limit` of them (claim-next only). */
  claim: { agent: AgentIdentity; workItemId: string | undefined; limit?: number | undefined };
  heartbeat: { agent: AgentIdentity; workItemId: string; attempt: number };
  complete: Completion;
  fail: {
    agent: AgentIdentity;
    workItemId: string;
    body: Contract.FailBody;
    idempotency?: IdempotencyKey | undefined;
  };
  requeue: { workItemId: string };
  /** The run canceled by an admin, with the reason given (if any). */
  cancelRun: { reason?: string | undefined };
  /** An A2A agent's card read again: its endpoint stored, the change or failure an event. */
  checkCard: CardCheck;
  /** Expires the overdue leases only (every read of a run starts with it). */
  expireLeases: object;
}

/** What each command answers. */
export interface Answers {
  createRun: undefined;
  addAgent: undefined;
  claim: Claimed | undefined;
  heartbeat: Contract.HeartbeatView;
  complete: Completed;
  fail: Contract.FailureView;
  requeue: ItemRecord;
  cancelRun: undefined;
  checkCard: undefined;
  expireLeases: undefined;
}

/** A command's type. */
export type CommandType = keyof Commands;

/** A command: its type and what it is made with. */
export type Command<Type extends CommandType = CommandType> = {
  [T in Type]: { type: T } & Commands[T];
}[Type];

/** The commands that change a run, the one list (the store's write methods follow it). */
export const commandTypes = [
  "createRun",
  "addAgent",
  "claim",
  "heartbeat",
  "complete",
  "fail",
  "requeue",
  "cancelRun",
  "checkCard",
  "expireLeases",
] as const satisfies readonly CommandType[];

/**
 * The commands a canceled run still takes: a cancel again (answered as it is), a card's check
 * and the expiry of leases (nothing is leased any more: both change nothing of its work).
 */
const acceptedWhenCanceled: ReadonlySet<CommandType> = new Set([
  "cancelRun",
  "checkCard",
  "expireLeases",
]);

/** A command's outcome: its answer and its writes (with its events among them), or its refusal. */
export type Decision<Answer> =
  | { ok: true; answer: Answer; writes: Write[]; events: CollaborationEvent[] }
  | { ok: false; error: DeliveryError | ArgumentError };

/** How each command changes a run, given the draft of its change. */
const transitions: { [T in CommandType]: (draft: Draft, command: Commands[T]) => Answers[T] } = {
  createRun: createRun,
  addAgent: (draft, { agent }) => addAgent(draft, agent),
  claim: (draft, { agent, workItemId, limit }) =>
    workItemId === undefined ? claimNext(draft, agent, limit) : claim(draft, agent, workItemId),
  heartbeat: (draft, { agent, workItemId, attempt }) =>
    heartbeat(draft, agent, workItemId, attempt),
  complete: complete,
  fail: (draft, { agent, workItemId, body, idempotency }) =>
    fail(draft, agent, workItemId, body, idempotency),
  requeue: (draft, { workItemId }) => requeue(draft, workItemId),
  cancelRun: (draft, { reason }) => cancelRun(draft, reason),
  checkCard: checkCard,
  expireLeases: () => undefined,
};

/**
 * Decides `command` on the run `runId`, whose state is `state` (undefined: the run does not
 * exist). `state` is not changed: `applyWrites(state, decision.writes)` is the state after.
 * Refusals (`DeliveryError`, and `ArgumentError` for a run created twice) are answered, not
 * thrown; anything else thrown is a defect.
 */
export function decide<Type extends CommandType>(
  state: RunState | undefined,
  runId: string,
  command: Command<Type>,
  context: MachineContext,
): Decision<Answers[Type]> {
  try {
    let draft: Draft;
    if (command.type === "createRun") {
      if (state !== undefined) {
        throw new ArgumentError({
          argument: "runId",
          message: `expected the id of a new run, got ${runId}, which exists. Make one with newId("run").`,
        });
      }
      const created = newRun(runId, command as Command<"createRun">, context.now);
      draft = new Draft(created.state, context);
      draft.write({ type: "insertRun", run: created.run, stages: created.stages });
    } else {
      if (state === undefined) throw runNotFound(runId);
      if (state.run.status === "canceled" && !acceptedWhenCanceled.has(command.type)) {
        throw runCanceled(state.run);
      }
      draft = new Draft(state, context);
      expireLeases(draft);
    }
    const transition = transitions[command.type] as (
      draft: Draft,
      command: Command<Type>,
    ) => Answers[Type];
    const answer = transition(draft, command);
    return { ok: true, answer, writes: draft.finish(), events: draft.events };
  } catch (error) {
    if (DeliveryError.isInstance(error) || ArgumentError.isInstance(error)) {
      return { ok: false, error };
    }
    throw error;
  }
}
