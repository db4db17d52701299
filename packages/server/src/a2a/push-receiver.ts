// The service's end of A2A push notifications: a notification for one attempt's task is checked
// (the attempt is known, its token matches in constant time, the task is the attempt's), then
// handed to the attempt that runs in this process, which applies it as a streamed update; when
// none runs (the service restarted since), it is applied here from the stored row: `working`
// renews the lease, a final state is read back with GetTask and completes or fails the item, once.
// Forged notifications are refused and counted; late ones (the attempt ended) ignored and noted.
import { StreamResponse, TaskState } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { AgentIdentity, DeliveryStore } from "../delivery/delivery-store.ts";
import { connectAgent } from "./agent-client.ts";
import type { AgentOperations } from "./agent-operations.ts";
import { errorMessages, quoted } from "./agent-problem.ts";
import type { OAuthTokens } from "./oauth-tokens.ts";
import type { PushTask, PushTasks } from "./push-tasks.ts";
import { pushTokenMatches } from "./push-token.ts";
import { type OutcomeItem, taskOutcome } from "./task-outcome.ts";
import { attemptMessageId } from "./work-item-message.ts";

/** What a notification carries: one of a task, a message, a status or an artifact update. */
export type PushPayload = NonNullable<StreamResponse["payload"]>;

/** Why a notification was refused, as {@link PushStats.refused} counts it. */
export type PushRefusal =
  | "missing_token"
  | "wrong_token"
  | "unknown_attempt"
  | "unknown_task"
  | "invalid_body";

/** What the receiver did so far: where forged notifications are counted. */
export interface PushStats {
  /** Notifications handed to the attempt, or applied after a restart. */
  applied: number;
  /** Notifications for an attempt that had ended (a duplicate, or a late one): ignored. */
  late: number;
  /** Notifications refused, by why. */
  refused: Record<PushRefusal, number>;
}

/** The answer to one notification: accepted (2xx), or refused with its error. */
export type PushAnswer = { outcome: "applied" | "late" } | { refused: DeliveryError };

/** What a receiver needs to apply a notification when no attempt of this process holds it. */
export interface PushReceiverOptions {
  tasks: PushTasks;
  store: DeliveryStore;
  operations: AgentOperations;
  tokens: OAuthTokens;
  clock: () => number;
  /** An answer of the agent is read up to this many bytes. */
  answerBytes: number;
  fetch?: typeof fetch | undefined;
  onError?: ((error: unknown) => void) | undefined;
}

/** An attempt of this process that takes its task's notifications. */
export type LiveAttempt = (payload: PushPayload) => void;

const FINAL_STATES = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
]);

const liveKey = (runId: string, workItemId: string, attempt: number) =>
  `${runId} ${workItemId} ${attempt}`;

/** The task id a notification is about. */
function taskIdOf(payload: PushPayload): string {
  return payload.$case === "task" ? payload.value.id : payload.value.taskId;
}

/**
 * Receives the push notifications of the A2A attempts of one service (see the file's opening
 * comment); `stats` counts what it applied, ignored and refused.
 */
export class PushReceiver {
  readonly stats: PushStats = {
    applied: 0,
    late: 0,
    refused: {
      missing_token: 0,
      wrong_token: 0,
      unknown_attempt: 0,
      unknown_task: 0,
      invalid_body: 0,
    },
  };
  readonly tasks: PushTasks;
  readonly #options: PushReceiverOptions;
  readonly #live = new Map<string, LiveAttempt>();

  constructor(options: PushReceiverOptions) {
    this.#options = options;
    this.tasks = options.tasks;
  }

  /** An attempt of this process takes its notifications until the returned function is called. */
  follow(runId: string, workItemId: string, attempt: number, live: LiveAttempt): () => void {
    const key = liveKey(runId, workItemId, attempt);
    this.#live.set(key, live);
    return () => {
      if (this.#live.get(key) === live) this.#live.delete(key);
    };
  }

  /**
   * Checks and applies one notification for attempt `attempt` of the run's item, with the token
   * it came with (undefined: none) and its body (JSON, a StreamResponse).
   */
  async receive(
    runId: string,
    workItemId: string,
    attempt: number,
    token: string | undefined,
    body: unknown,
  ): Promise<PushAnswer> {
    const row = Number.isSafeInteger(attempt)
      ? await this.tasks.find(runId, workItemId, attempt)
      : undefined;
    if (row === undefined) {
      return this.#refuse(
        "unknown_attempt",
        "NOT_FOUND",
        "No A2A attempt of this service waits for push notifications at this URL.",
      );
    }
    if (token === undefined) {
      return this.#refuse(
        "missing_token",
        "UNAUTHORIZED",
        "A push notification needs the attempt's token: Authorization: Bearer <token> (or X-A2A-Notification-Token), as its push configuration gave it.",
      );
    }
    if (!(await pushTokenMatches(token, row.token_hash))) {
      return this.#refuse(
        "wrong_token",
        "UNAUTHORIZED",
        "The push notification's token is not the attempt's. Send the token of the push configuration this URL came with.",
      );
    }
    const payload = parsePayload(body);
    if (payload === undefined) {
      return this.#refuse(
        "invalid_body",
        "INVALID_REQUEST",
        "A push notification's body is an A2A StreamResponse: one of task, message, statusUpdate or artifactUpdate.",
      );
    }
    const taskId = taskIdOf(payload);
    if (row.task_id !== null && taskId !== row.task_id) {
      return this.#refuse(
        "unknown_task",
        "NOT_FOUND",
        `The push notification is about task ${JSON.stringify(taskId)}, not the attempt's task.`,
      );
    }
    if (row.ended_at !== null) return await this.#late(row);
    const live = this.#live.get(liveKey(runId, workItemId, attempt));
    this.stats.applied += 1;
    if (live !== undefined) {
      live(payload);
      return { outcome: "applied" };
    }
    await this.#applyDetached(row, taskId, payload);
    return { outcome: "applied" };
  }

  async #late(row: PushTask): Promise<PushAnswer> {
    this.stats.late += 1;
    await this.tasks.noteLate(row.run_id, row.work_item_id, row.attempt);
    return { outcome: "late" };
  }

  #refuse(
    why: PushRefusal,
    code: "NOT_FOUND" | "UNAUTHORIZED" | "INVALID_REQUEST",
    message: string,
  ): PushAnswer {
    this.stats.refused[why] += 1;
    return { refused: new DeliveryError({ code, message }) };
  }

  /**
   * A notification no attempt of this process follows (the service restarted since it sent the
   * message, or a Durable Object's round handed the task over): `working` renews the lease; a
   * final state is read back with GetTask (the task and its artifacts) and applied once.
   */
  async #applyDetached(row: PushTask, taskId: string, payload: PushPayload): Promise<void> {
    await this.tasks.noteNews(row.run_id, row.work_item_id, row.attempt, this.#options.clock());
    const state =
      payload.$case === "task" || payload.$case === "statusUpdate"
        ? payload.value.status?.state
        : undefined;
    if (state === TaskState.TASK_STATE_WORKING) {
      await this.#detached(row, async ({ identity }) => {
        await this.#options.operations
          .heartbeat(row.run_id, identity, row.work_item_id, row.attempt)
          .catch((error: unknown) => this.#stale(row, error));
      });
      return;
    }
    if (state === undefined || !FINAL_STATES.has(state)) return;
    await this.#readBack(row, taskId);
  }

  /**
   * The safety poll of the run's tasks that no attempt of this process follows: each whose last
   * news is older than `safetyMs` is read with GetTask and applied (a `working` renews the lease,
   * a final state ends the attempt), so that a lost notification cannot lose the item.
   */
  async safetyPoll(runId: string, safetyMs: number): Promise<void> {
    const due = this.#options.clock() - safetyMs;
    for (const row of await this.tasks.openTasks(runId)) {
      if (row.last_news_at > due || row.task_id === null) continue;
      if (this.#live.has(liveKey(row.run_id, row.work_item_id, row.attempt))) continue;
      await this.tasks.noteNews(row.run_id, row.work_item_id, row.attempt, this.#options.clock());
      await this.#readBack(row, row.task_id);
    }
  }

  /**
   * The safety poll of tasks no attempt follows any more (the service that sent their message
   * stopped): each open one without news for half a lease of its run, and not followed here, is
   * read with GetTask and applied. The Node server runs it with its sweep (on PostgreSQL it may
   * read a task another instance follows too: what it applies is applied once).
   */
  async sweep(): Promise<void> {
    const { clock } = this.#options;
    for (const row of await this.tasks.orphans(clock())) {
      if (row.task_id === null) continue;
      if (this.#live.has(liveKey(row.run_id, row.work_item_id, row.attempt))) continue;
      await this.tasks.noteNews(row.run_id, row.work_item_id, row.attempt, clock());
      await this.#readBack(row, row.task_id);
    }
  }

  /** Reads the task back with GetTask and applies what its state means for the attempt. */
  async #readBack(row: PushTask, taskId: string): Promise<void> {
    await this.#detached(row, async ({ identity, connect }) => {
      const { operations, clock } = this.#options;
      let outcome: ReturnType<typeof taskOutcome>;
      try {
        const task = await (await connect()).getTask({ tenant: "", id: taskId, historyLength: 0 });
        const item = { kind: row.kind, context_sha256: row.context_sha256 ?? undefined };
        outcome = taskOutcome(task, item as OutcomeItem, row.attempt);
      } catch (error) {
        outcome = {
          kind: "fail",
          reason: `The service could not read the A2A task back (GetTask): ${quoted(errorMessages(error))}.`,
        };
      }
      if (outcome.kind === "pending") {
        if (outcome.working) {
          await operations
            .heartbeat(row.run_id, identity, row.work_item_id, row.attempt)
            .catch((error: unknown) => this.#stale(row, error));
        }
        return;
      }
      if (!(await this.tasks.end(row.run_id, row.work_item_id, row.attempt, clock()))) return;
      const key = attemptMessageId(row.run_id, row.work_item_id, row.attempt);
      try {
        if (outcome.kind === "complete") {
          await operations.complete(row.run_id, identity, row.work_item_id, outcome.body, key);
        } else {
          const body = { attempt: row.attempt, reason: outcome.reason };
          await operations.fail(row.run_id, identity, row.work_item_id, body, key);
        }
      } catch (error) {
        this.#stale(row, error);
      }
    });
  }

  /** Runs `apply` with the attempt's agent (gone: nothing to do) and a client of it. */
  async #detached(
    row: PushTask,
    apply: (agent: { identity: AgentIdentity; connect: () => Promise<Client> }) => Promise<void>,
  ): Promise<void> {
    const agents = await this.#options.store.a2aAgents(row.run_id);
    const agent = agents.find((candidate) => candidate.agent_id === row.agent_id);
    if (agent === undefined) return;
    const { credentials } = agent.a2a;
    const connect = async () =>
      (
        await connectAgent(
          agent.a2a.card,
          this.#options.answerBytes,
          this.#options.fetch,
          credentials === undefined ? undefined : { credentials, tokens: this.#options.tokens },
        )
      ).client;
    await apply({ identity: { agent_id: agent.agent_id, tag: agent.tag }, connect });
  }

  /** A store refusal of a detached notification: stale (409) ends the attempt; else told. */
  async #stale(row: PushTask, error: unknown): Promise<void> {
    if (DeliveryError.isInstance(error) && error.status === 409) {
      await this.tasks.end(row.run_id, row.work_item_id, row.attempt, this.#options.clock());
      return;
    }
    this.#options.onError?.(error);
  }
}

/** The notification's payload, or undefined when `body` is not a StreamResponse. */
function parsePayload(body: unknown): PushPayload | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  try {
    const payload = StreamResponse.fromJSON(body).payload;
    if (payload === undefined) return undefined;
    const id = taskIdOf(payload);
    return typeof id === "string" && id !== "" ? payload : undefined;
  } catch {
    return undefined;
  }
}
