// A real A2A 1.0 agent for the tests, built with the official SDK's server (DefaultRequestHandler,
// express handlers) on loopback: it does the work of the demo's stages — a text artifact for a
// task item, a review data part for a review item — unless a behaviour makes it hostile.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  AGENT_CARD_PATH,
  type AgentCard,
  type Artifact,
  type Message,
  type Part,
  Role,
  type Task,
  TaskState,
} from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import type { WorkItem } from "@task-context/protocols";
import express from "express";
import type { ServiceClient } from "../../src/client.ts";

/** What the agent does with one task; the default does the stage's work at once. */
export type Behaviour = (task: AgentTask) => Promise<void>;

/** One task as a behaviour sees it: the work item received, and ways to answer. */
export interface AgentTask {
  item: WorkItem;
  /** The work item's attempt, from the message's metadata. */
  attempt: number;
  message: Message;
  taskId: string;
  /** The text part the service rendered. */
  text: string;
  /** Publishes `working`: with a status timestamp unless `timestamp: false` (it is optional). */
  working(options?: { timestamp?: boolean }): void;
  /** Publishes an artifact (default: the stage's work) then `completed`. */
  complete(parts?: Part[]): void;
  /** Publishes a final (or interrupted) state with a message. */
  finish(state: TaskState, said?: string): void;
  /** True once the service asked to cancel this task, or the agent closed. */
  canceled(): boolean;
  /** How many times the task was polled (tasks/get) so far. */
  polls(): number;
  bus: ExecutionEventBus;
}

export const textPart = (value: string, mediaType = "text/markdown"): Part => ({
  content: { $case: "text", value },
  mediaType,
  filename: "",
  metadata: undefined,
});

export const dataPart = (value: unknown): Part => ({
  content: { $case: "data", value },
  mediaType: "application/json",
  filename: "",
  metadata: undefined,
});

/** The stage's work: a draft for a task item, an approval by every criterion for a review. */
export function stageWork(item: WorkItem, by: string): Part[] {
  if (item.kind === "review") {
    return [
      dataPart({
        verdict: "approve",
        summary: `Reviewed by ${by}`,
        criteria: item.review_context.review_criteria.map((criterion) => ({
          criterion,
          comment: `${criterion}: fine`,
        })),
      }),
    ];
  }
  return [textPart(`# ${item.stage_id} by ${by}\n\n${item.goal}`)];
}

/** A polling agent (its typed client) claims the next item and completes it with a draft. */
export async function completeNextByPolling(polling: ServiceClient): Promise<void> {
  const claim = await polling.claimNext();
  if (claim === undefined) throw new Error("nothing was on offer to the polling agent");
  await polling.complete(claim.work_item.id, {
    attempt: claim.lease.attempt,
    artifact: { media_type: "text/markdown", content: "# Lumen" },
  });
}

/** The default behaviour: working, then the stage's work, completed. */
export const doTheWork: Behaviour = async (task) => {
  task.working();
  task.complete();
};

export interface A2aAgentOptions {
  name: string;
  skills: { id: string; tags?: string[] }[];
  streaming?: boolean;
  behaviour?: Behaviour;
  /** Serve this instead of the card (a lying or broken card); `null`: no card at all (404). */
  card?: (card: AgentCard) => unknown;
}

export interface RunningA2aAgent {
  url: string;
  /** Every task it received, in order. */
  tasks: AgentTask[];
  /** Drops every open connection (a stream breaks), and goes on serving new ones. */
  dropConnections(): void;
  close(): Promise<void>;
}

function status(
  taskId: string,
  contextId: string,
  state: TaskState,
  said?: string,
  timestamp = true,
) {
  return AgentEvent.statusUpdate({
    taskId,
    contextId,
    status: {
      state,
      timestamp: timestamp ? new Date().toISOString() : undefined,
      message:
        said === undefined
          ? undefined
          : {
              messageId: crypto.randomUUID(),
              contextId,
              taskId,
              role: Role.ROLE_AGENT,
              parts: [textPart(said, "text/plain")],
              metadata: undefined,
              extensions: [],
              referenceTaskIds: [],
            },
    },
    metadata: undefined,
  });
}

/** The SDK's request handler, counting each task's polls (tasks/get). */
class CountingRequestHandler extends DefaultRequestHandler {
  readonly polls = new Map<string, number>();

  override async getTask(
    ...args: Parameters<DefaultRequestHandler["getTask"]>
  ): ReturnType<DefaultRequestHandler["getTask"]> {
    this.polls.set(args[0].id, (this.polls.get(args[0].id) ?? 0) + 1);
    return super.getTask(...args);
  }
}

class StageExecutor implements AgentExecutor {
  readonly #canceled = new Set<string>();
  /** The request handler, for each task's polls (set once it exists). */
  handler: CountingRequestHandler | undefined;
  /** Set when the agent closes: every task counts as canceled, so no behaviour waits on. */
  closed = false;
  readonly name: string;
  readonly behaviour: Behaviour;
  readonly tasks: AgentTask[];

  constructor(name: string, behaviour: Behaviour, tasks: AgentTask[]) {
    this.name = name;
    this.behaviour = behaviour;
    this.tasks = tasks;
  }

  cancelTask = async (taskId: string): Promise<void> => {
    this.#canceled.add(taskId);
  };

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const message = context.userMessage;
    const { taskId, contextId } = context;
    const data = message.parts.find((part) => part.content?.$case === "data");
    const text = message.parts.find((part) => part.content?.$case === "text");
    const item = (data?.content as { value: WorkItem } | undefined)?.value as WorkItem;
    const snapshot: Task = {
      id: taskId,
      contextId,
      status: {
        state: TaskState.TASK_STATE_SUBMITTED,
        timestamp: new Date().toISOString(),
        message: undefined,
      },
      artifacts: [],
      history: [message],
      metadata: message.metadata,
    };
    bus.publish(AgentEvent.task(snapshot));
    const task: AgentTask = {
      item,
      attempt: (message.metadata?.task_context as { attempt: number } | undefined)?.attempt ?? 0,
      message,
      taskId,
      text: (text?.content as { value: string } | undefined)?.value ?? "",
      bus,
      working: (options) =>
        bus.publish(
          status(
            taskId,
            contextId,
            TaskState.TASK_STATE_WORKING,
            undefined,
            options?.timestamp ?? true,
          ),
        ),
      complete: (parts = stageWork(item, this.name)) => {
        const artifact: Artifact = {
          artifactId: crypto.randomUUID(),
          name: `${item.stage_id} result`,
          description: "",
          parts,
          metadata: undefined,
          extensions: [],
        };
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact,
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        );
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
      },
      finish: (state, said) => bus.publish(status(taskId, contextId, state, said)),
      canceled: () => this.#canceled.has(taskId) || this.closed,
      polls: () => this.handler?.polls.get(taskId) ?? 0,
    };
    this.tasks.push(task);
    await this.behaviour(task);
    bus.finished();
  }
}

/** Starts an A2A agent on 127.0.0.1 (a free port). */
export async function startA2aAgent(options: A2aAgentOptions): Promise<RunningA2aAgent> {
  const tasks: AgentTask[] = [];
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: options.name,
    description: `A test agent: ${options.name}`,
    supportedInterfaces: [
      { url: `${url}/`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
    ],
    provider: undefined,
    version: "1.0.0",
    capabilities: {
      streaming: options.streaming ?? true,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/markdown", "application/json"],
    skills: options.skills.map((skill) => ({
      id: skill.id,
      name: skill.id,
      description: skill.id,
      tags: skill.tags ?? [],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    })),
    signatures: [],
  };
  const executor = new StageExecutor(options.name, options.behaviour ?? doTheWork, tasks);
  const handler = new CountingRequestHandler(card, new InMemoryTaskStore(), executor);
  executor.handler = handler;
  const served = options.card === undefined ? card : options.card(card);
  if (served !== null) {
    if (options.card === undefined) {
      app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
    } else {
      app.get(`/${AGENT_CARD_PATH}`, (_request, response) => {
        response
          .type("application/json")
          .send(typeof served === "string" ? served : JSON.stringify(served));
      });
    }
  }
  app.use(jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return {
    url,
    tasks,
    dropConnections: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        executor.closed = true;
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
