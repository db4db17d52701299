// The inverse of work-item-message.ts, on the agent's side: what an A2A agent reads of the message
// that starts an attempt's task.
import type { Message } from "@a2a-js/sdk";
import { validate, type WorkItem } from "@task-context/protocols";
import { type AttemptMetadata, METADATA_KEY } from "./work-item-message.ts";

/** A work item as an A2A agent receives it, read from the message the service sent. */
export interface ReceivedWorkItem {
  /** The work item (work-item.v1, checked against its schema): the data part. */
  item: WorkItem;
  /** The message's `task_context` metadata: the run, the item, the attempt, its receipt and trace. */
  metadata: AttemptMetadata;
  /** The text part: the item's context rendered for a model, `[Task Context]` then `[Request]`. */
  text: string;
  /** The URLs of the earlier artifacts (the url parts), absolute, under the service's origin. */
  artifactUrls: string[];
}

/** At most this many schema issues are named in a refusal; the rest are counted. */
const NAMED_ISSUES = 5;

/** The value of the message's first part of kind `kind`, or undefined. */
function partOf(message: Message, kind: "text" | "data"): unknown {
  return message.parts.find((part) => part.content?.$case === kind)?.content?.value;
}

/** The refusal of a message that is not a work item, saying what is wrong. */
const refusal = (what: string) =>
  `The message carries no valid task-context work item: ${what}. This agent works the work items a task-context delivery service sends.`;

/**
 * Reads the work item of a message the delivery service sent (`workItemMessage`): its data part
 * (checked against work-item.v1), text part, url parts and `task_context` metadata. Anything else
 * is refused with a sentence that says what is missing or wrong, for the task's `rejected` status.
 */
export function readWorkItemMessage(message: Message): ReceivedWorkItem | { refusal: string } {
  const metadata = message.metadata?.[METADATA_KEY] as Partial<AttemptMetadata> | undefined;
  const attempt = metadata?.attempt;
  if (typeof attempt !== "number" || !Number.isInteger(attempt) || attempt < 1) {
    return { refusal: refusal(`it has no ${METADATA_KEY} metadata with the attempt`) };
  }
  const data = partOf(message, "data");
  if (data === undefined) return { refusal: refusal("it has no data part") };
  const checked = validate("work-item.v1", data);
  if (!checked.valid) {
    const named = checked.issues
      .slice(0, NAMED_ISSUES)
      .map((issue) => `${issue.path}: ${issue.message.replace(/\.$/, "")}`);
    const more = checked.issues.length - named.length;
    const issues = [...named, ...(more > 0 ? [`${more} more`] : [])].join("; ");
    return { refusal: refusal(`its data part is not a work-item.v1 (${issues})`) };
  }
  const text = partOf(message, "text");
  if (typeof text !== "string") return { refusal: refusal("it has no text part") };
  return {
    item: data as WorkItem,
    metadata: metadata as AttemptMetadata,
    text,
    artifactUrls: message.parts.flatMap((part) =>
      part.content?.$case === "url" ? [part.content.value] : [],
    ),
  };
}
