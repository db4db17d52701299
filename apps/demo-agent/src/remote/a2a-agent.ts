// An A2A 1.0 agent, served as a user serves one: `startWorkItemAgent` of
// `@task-context/server/a2a-agent` (the official SDK's DefaultRequestHandler and express handlers)
// on 127.0.0.1. The delivery service sends it a work item as an A2A message; it hands the
// [Task Context] the service rendered to its model through the AI SDK, and answers with one
// artifact, then `completed`. It never calls the service itself: the service follows the task
// (streaming) and completes the work item for it.
import type { AgentCard } from "@a2a-js/sdk";
import { propagation, ROOT_CONTEXT } from "@opentelemetry/api";
import { injectTaskContext, splitTaskContext } from "@task-context/core";
import type { WorkItem } from "@task-context/protocols/work-item";
import { type AttemptMetadata, startWorkItemAgent } from "@task-context/server/a2a-agent";
import { generateText, type LanguageModel } from "ai";
import { invokeAgent } from "../agent-span.ts";

/** One A2A task the agent received and what it did with it. */
export interface A2aWork {
  taskId: string;
  contextId: string;
  messageId: string;
  /** The message's `task_context` metadata. */
  metadata: AttemptMetadata;
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

/** Starts the A2A agent on 127.0.0.1 (a free port), with its agent card. */
export async function startA2aAgent(options: {
  /** The tag the service knows it by: its span is `invoke_agent {tag}`. */
  tag: string;
  name: string;
  description: string;
  /** The service matches a stage when every one of its available_skills is a skill id or tag. */
  skills: readonly { id: string; description: string; tags: readonly string[] }[];
  model: LanguageModel;
}): Promise<RunningA2aAgent> {
  const worked: A2aWork[] = [];
  const agent = await startWorkItemAgent({
    name: options.name,
    description: options.description,
    skills: options.skills,
    execute: (task) => {
      // Its work continues the run's trace, which the message's metadata carries (and nothing
      // else of the context the request arrived in).
      const { traceparent, tracestate } = task.metadata;
      const runTrace = propagation.extract(ROOT_CONTEXT, { traceparent, tracestate });
      return invokeAgent(
        { name: options.tag, id: task.item.id, kind: "server", parent: runTrace },
        async () => {
          task.working();
          // Its model gets the [Task Context] the service rendered, as it arrived, and the
          // stage's work as the request; the agent itself knows how A2A wants the answer.
          const prompt = injectTaskContext(
            `${task.item.stage_context.stage_description}.`,
            splitTaskContext(task.text).context,
          );
          const { text: answer } = await generateText({
            model: options.model,
            prompt,
            maxRetries: 0,
            abortSignal: task.signal,
          });
          worked.push({
            taskId: task.taskId,
            contextId: task.contextId,
            messageId: task.message.messageId,
            metadata: task.metadata,
            item: task.item,
            text: task.text,
            urls: [...task.artifactUrls],
            prompt,
            answer,
          });
          task.complete(answer, { title: task.item.stage_context.stage_description });
          return undefined;
        },
      );
    },
  });
  return { url: agent.url, card: agent.card, worked, close: () => agent.close() };
}
