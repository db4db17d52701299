// An A2A 1.0 agent, built with the official SDK's server (`@a2a-js/sdk`: DefaultRequestHandler and
// its express handlers) on 127.0.0.1. The delivery service sends it a work item as an A2A message;
// it hands the [Task Context] the service rendered to its model through the AI SDK, and answers
// with one artifact, then `completed`. It never calls the service itself: the service follows the
// task (streaming) and completes the work item for it.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  AGENT_CARD_PATH,
  type AgentCard,
  type Message,
  type Part,
  Role,
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
import { propagation, ROOT_CONTEXT } from "@opentelemetry/api";
import { injectTaskContext, splitTaskContext } from "@task-context/core";
import type { WorkItem } from "@task-context/protocols/work-item";
import { generateText, type LanguageModel } from "ai";
import express from "express";
import { invokeAgent } from "../agent-span.ts";

/** What the service puts in each message's metadata, under `task_context`. */
export interface A2aTaskMetadata {
  run_id: string;
  work_item_id: string;
  attempt: number;
  context_sha256?: string;
  kind: "task" | "review";
  stage_id: string;
  traceparent?: string;
  tracestate?: string;
}

/** One A2A task the agent received and what it did with it. */
export interface A2aWork {
  taskId: string;
  contextId: string;
  messageId: string;
  /** The message's `task_context` metadata. */
  metadata: A2aTaskMetadata;
  /** The work item, from the message's data part (work-item.v1). */
  item: WorkItem;
  /** The text part: the item's context as the service rendered it, `[Task Context]`, `[Request]`. */
  text: string;
  /** The url parts: the earlier artifacts' URIs. */
  urls: string[];
  /** The prompt its model received: the rendered [Task Context], and the stage's work as [Request]. */
  prompt: string;
  /** The artifact it answered with (a text part). */
  answer: string;
}

/** A running A2A agent. */
export interface RunningA2aAgent {
  /** Its base URL: the card is at `${url}/.well-known/agent-card.json`. */
  url: string;
  card: AgentCard;
  /** Every task it worked, in order. */
  worked: A2aWork[];
  close(): Promise<void>;
}

const textPart = (value: string, mediaType: string): Part => ({
  content: { $case: "text", value },
  mediaType,
  filename: "",
  metadata: undefined,
});

/** A status update of a task, with an agent message when `said` is given. */
function status(taskId: string, contextId: string, state: TaskState, said?: string) {
  const message: Message | undefined =
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
        };
  return AgentEvent.statusUpdate({
    taskId,
    contextId,
    status: { state, timestamp: new Date().toISOString(), message },
    metadata: undefined,
  });
}

/** Works each message: the stage's work from its [Task Context], one artifact, `completed`. */
class StageExecutor implements AgentExecutor {
  readonly #tag: string;
  readonly #model: LanguageModel;
  readonly #worked: A2aWork[];

  constructor(tag: string, model: LanguageModel, worked: A2aWork[]) {
    this.#tag = tag;
    this.#model = model;
    this.#worked = worked;
  }

  // It finishes each task within one model call; a cancel finds nothing left to stop.
  cancelTask = async (): Promise<void> => {};

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const message = context.userMessage;
    const { taskId, contextId } = context;
    bus.publish(
      AgentEvent.task({
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
      }),
    );
    const metadata = message.metadata?.task_context as A2aTaskMetadata | undefined;
    const content = (part: Part | undefined) => part?.content;
    const text = content(message.parts.find((part) => part.content?.$case === "text"));
    const data = content(message.parts.find((part) => part.content?.$case === "data"));
    if (metadata === undefined || text?.$case !== "text" || data?.$case !== "data") {
      bus.publish(
        status(
          taskId,
          contextId,
          TaskState.TASK_STATE_REJECTED,
          "Expected a work item: task_context metadata, a text part and a data part.",
        ),
      );
      bus.finished();
      return;
    }
    const item = data.value as WorkItem;
    // Its work continues the run's trace, which the message's metadata carries.
    const runTrace = propagation.extract(ROOT_CONTEXT, {
      ...(metadata.traceparent === undefined ? {} : { traceparent: metadata.traceparent }),
      ...(metadata.tracestate === undefined ? {} : { tracestate: metadata.tracestate }),
    });
    try {
      await invokeAgent(
        { name: this.#tag, id: item.id, kind: "server", parent: runTrace },
        async () => {
          bus.publish(status(taskId, contextId, TaskState.TASK_STATE_WORKING));
          // Its model gets the [Task Context] the service rendered, as it arrived, and the stage's
          // work as the request; the agent itself knows how A2A wants the answer.
          const prompt = injectTaskContext(
            `${item.stage_context.stage_description}.`,
            splitTaskContext(text.value).context,
          );
          const { text: answer } = await generateText({
            model: this.#model,
            prompt,
            maxRetries: 0,
          });
          this.#worked.push({
            taskId,
            contextId,
            messageId: message.messageId,
            metadata,
            item,
            text: text.value,
            urls: message.parts.flatMap((part) =>
              part.content?.$case === "url" ? [part.content.value] : [],
            ),
            prompt,
            answer,
          });
          bus.publish(
            AgentEvent.artifactUpdate({
              taskId,
              contextId,
              artifact: {
                artifactId: crypto.randomUUID(),
                name: item.stage_context.stage_description,
                description: "",
                parts: [textPart(answer, "text/markdown")],
                metadata: undefined,
                extensions: [],
              },
              append: false,
              lastChunk: true,
              metadata: undefined,
            }),
          );
          bus.publish(status(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
        },
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_FAILED, reason));
    }
    bus.finished();
  }
}

/** Starts the A2A agent on 127.0.0.1 (a free port), with its agent card. */
export async function startA2aAgent(options: {
  /** The tag the service knows it by: its span is `invoke_agent {tag}`. */
  tag: string;
  name: string;
  description: string;
  skills: readonly { id: string; description: string; tags: readonly string[] }[];
  model: LanguageModel;
}): Promise<RunningA2aAgent> {
  const worked: A2aWork[] = [];
  const app = express();
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(0, "127.0.0.1", (error?: Error) =>
      error === undefined ? resolve(listening) : reject(error),
    );
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: options.name,
    description: options.description,
    supportedInterfaces: [
      { url: `${url}/`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
    ],
    provider: undefined,
    version: "1.0.0",
    capabilities: {
      streaming: true, // the service follows each task on its stream (else: tasks/get)
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/markdown"],
    // The service matches a stage when every one of its available_skills is a skill id or tag.
    skills: options.skills.map((skill) => ({
      id: skill.id,
      name: skill.id,
      description: skill.description,
      tags: [...skill.tags],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    })),
    signatures: [],
  };
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new StageExecutor(options.tag, options.model, worked),
  );
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
  app.use(jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return {
    url,
    card,
    worked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
