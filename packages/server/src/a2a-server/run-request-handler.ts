import type {
  AgentCard,
  CancelTaskRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksResponse,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import {
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import type { A2ARequestHandler, ServerCallContext } from "@a2a-js/sdk/server";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { ServiceContext } from "../execution/service-context.ts";
import { screenRunSecrets } from "../http/run-secrets.ts";
import { invalidRunError, runInputOfMessage } from "./message-run-input.ts";
import { isFinalState, taskOfRun } from "./run-task.ts";
import { runEvents } from "./run-task-events.ts";
import { runIdOfMessage, runIdOfTask, type Sender, taskIdOf } from "./task-ids.ts";

/** Where a request handler's call-scoped values sit in the SDK's `ServerCallContext.state`. */
export const CALL_SIGNAL = "task-context.signal";
export const CALL_SENDER = "task-context.sender";

/** The reason a run canceled through A2A's `CancelTask` is given (its event and refusals say it). */
export const CANCEL_REASON = "canceled by its A2A client (CancelTask)";

/** What {@link RunRequestHandler} is built from, per request. */
export interface RunRequestHandlerOptions {
  service: ServiceContext;
  card: AgentCard;
  /** A secret of the service that names the runs messages create (see `runIdOfMessage`). */
  secret: string;
}

/** The signal a call is given (aborts when the client goes away or the service stops). */
function signalOf(context: ServerCallContext): AbortSignal {
  const signal = context.state.get(CALL_SIGNAL);
  return signal instanceof AbortSignal ? signal : new AbortController().signal;
}

/** Who sent the call (the route authenticated it); the admin when the route set nobody. */
function senderOf(context: ServerCallContext): Sender {
  return (context.state.get(CALL_SENDER) as Sender | undefined) ?? { kind: "admin" };
}

/** A store's `RUN_NOT_FOUND` as A2A's `TaskNotFound` for the task `taskId`; other errors as they are. */
function notFound(taskId: string) {
  return (error: unknown): never => {
    if (DeliveryError.isInstance(error) && error.code === "RUN_NOT_FOUND") {
      throw new TaskNotFoundError(`No task ${taskId}.`);
    }
    throw error;
  };
}

/**
 * The delivery service as an A2A request handler (the SDK's `A2ARequestHandler`, served by its
 * `JsonRpcTransportHandler`): a task is a run. `SendMessage` creates the run its parts describe
 * (the same message id names the same run: a retry answers the task again), `GetTask` reads it,
 * `SendStreamingMessage` and `SubscribeToTask` follow its events as status and artifact updates,
 * `CancelTask` cancels the run.
 * The SDK's `DefaultRequestHandler` keeps tasks in a task store and runs an executor in this
 * process; here the run's own store is the task store, on every runtime, so a task outlives the
 * request (and the instance) that created it.
 */
export class RunRequestHandler implements A2ARequestHandler {
  readonly #service: ServiceContext;
  readonly #card: AgentCard;
  readonly #secret: string;

  constructor(options: RunRequestHandlerOptions) {
    this.#service = options.service;
    this.#card = options.card;
    this.#secret = options.secret;
  }

  async getAgentCard(): Promise<AgentCard> {
    return this.#card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    // The card says extendedAgentCard: false, for which the specification asks this error.
    throw new UnsupportedOperationError("The service has no extended agent card.");
  }

  /**
   * Creates the run (or finds the one the same message created) and answers its task: at once
   * with `returnImmediately`, else — the specification's default — once the run has ended
   * (completed, or blocked: `failed`), or when the client goes away.
   */
  async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Task> {
    const taskId = await this.#createRun(params, context);
    if (params.configuration?.returnImmediately !== true) {
      for await (const _ of this.#follow(taskId, context)) {
        // Each update is read past: the answer is the task as it ends.
      }
    }
    return this.#task(taskId, context);
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    yield* this.#follow(await this.#createRun(params, context), context);
  }

  async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.#task(params.id, context);
  }

  /**
   * Cancels the task's run (as `POST /v1/runs/{run_id}/cancel` does): its items are withdrawn,
   * its agents' work refused, and the task answered `canceled` (streams following it end with
   * that status). A canceled task is answered as it is; a completed one is not cancelable. A
   * blocked run's task (`failed`, which a requeue can resume) is canceled too.
   */
  async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const runId = await this.#runOf(params.id, context);
    try {
      await this.#service.store.cancelRun(runId, CANCEL_REASON);
    } catch (error) {
      if (DeliveryError.isInstance(error) && error.code === "RUN_COMPLETED") {
        throw new TaskNotCancelableError(
          `Task ${params.id} has completed; a completed task cannot be canceled.`,
        );
      }
      notFound(params.id)(error);
    }
    return this.#task(params.id, context);
  }

  async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const task = await this.#task(params.id, context);
    if (task.status !== undefined && isFinalState(task.status.state)) {
      throw new UnsupportedOperationError(
        `Task ${params.id} has ended: read it with GetTask instead of subscribing.`,
      );
    }
    yield* this.#follow(params.id, context);
  }

  async listTasks(): Promise<ListTasksResponse> {
    throw new UnsupportedOperationError(
      "ListTasks is not served: list runs with GET /v1/runs (admin token).",
    );
  }

  async createTaskPushNotificationConfig(): Promise<TaskPushNotificationConfig> {
    throw new PushNotificationNotSupportedError("The service sends no push notifications.");
  }

  async getTaskPushNotificationConfig(): Promise<TaskPushNotificationConfig> {
    throw new PushNotificationNotSupportedError("The service sends no push notifications.");
  }

  async listTaskPushNotificationConfigs(): Promise<ListTaskPushNotificationConfigsResponse> {
    throw new PushNotificationNotSupportedError("The service sends no push notifications.");
  }

  async deleteTaskPushNotificationConfig(): Promise<void> {
    throw new PushNotificationNotSupportedError("The service sends no push notifications.");
  }

  /**
   * The run a message asks for, created unless the same message (from the same sender) created
   * it before; answers its task id.
   */
  async #createRun(params: SendMessageRequest, context: ServerCallContext): Promise<string> {
    const message = params.message;
    if (message === undefined || message.messageId === "") {
      throw new RequestMalformedError("SendMessage needs a message with a messageId.");
    }
    if (message.taskId !== "") {
      await this.#task(message.taskId, context); // TaskNotFound for a task that is not the sender's
      throw new UnsupportedOperationError(
        `Task ${message.taskId} takes no further messages: a run is described once. Send a new message without taskId for a new run.`,
      );
    }
    if (message.contextId !== "") {
      throw invalidRunError(
        "INVALID_REQUEST",
        "The service names each task's context itself (its run id): send the message without contextId.",
        [],
      );
    }
    const sender = senderOf(context);
    const runId = await runIdOfMessage(this.#secret, sender, message.messageId);
    const taskId = await taskIdOf(this.#secret, sender, runId);
    if (await this.#exists(runId)) return taskId;
    const { input } = screenRunSecrets(runInputOfMessage(message), this.#service.secrets);
    try {
      await this.#service.store.createRun(runId, input);
    } catch (error) {
      // The same message sent twice at once: the other created it.
      if (await this.#exists(runId)) return taskId;
      if (DeliveryError.isInstance(error) && error.status < 500) {
        throw invalidRunError(error.code, error.message, error.issues ?? []);
      }
      throw error;
    }
    return taskId;
  }

  async #exists(runId: string): Promise<boolean> {
    try {
      await this.#service.store.getRun(runId);
      return true;
    } catch (error) {
      if (DeliveryError.isInstance(error) && error.code === "RUN_NOT_FOUND") return false;
      throw error;
    }
  }

  /**
   * The run the task `taskId` is, for the call's sender; `TaskNotFound` when there is none, or
   * none the sender may see (the same answer: a token learns nothing of other runs).
   */
  async #runOf(taskId: string, context: ServerCallContext): Promise<string> {
    const runId = await runIdOfTask(this.#secret, senderOf(context), taskId);
    if (runId === undefined) throw new TaskNotFoundError(`No task ${taskId}.`);
    return runId;
  }

  /** The task `taskId` as its run is now. */
  async #task(taskId: string, context: ServerCallContext): Promise<Task> {
    const runId = await this.#runOf(taskId, context);
    const { store } = this.#service;
    const overview = await store.overview(runId).catch(notFound(taskId));
    // The status's time: the run's last change (its last event).
    const last = await store.lastSeq(runId);
    const [event] = (await store.events(runId, Math.max(0, last - 1), 1)).events;
    return taskOfRun(overview, taskId, event?.at ?? overview.run.created_at);
  }

  /** The task, then its run's events as updates until it ends (or the client goes away). */
  async *#follow(taskId: string, context: ServerCallContext): AsyncGenerator<StreamResponse> {
    const runId = await this.#runOf(taskId, context);
    // The last seq first: an event between it and the task's read is sent again, never lost.
    const after = await this.#service.store.lastSeq(runId).catch(notFound(taskId));
    const task = await this.#task(taskId, context);
    yield { payload: { $case: "task", value: task } };
    if (task.status !== undefined && isFinalState(task.status.state)) return;
    const signal = signalOf(context);
    yield* runEvents(this.#service, runId, taskId, after, task.artifacts, signal);
  }
}
