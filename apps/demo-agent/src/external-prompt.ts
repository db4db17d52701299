import { splitTaskContext, type Tokenizer } from "@task-context/core";
import { sha256Hex } from "@task-context/core/internal";
import type { Recipient } from "./demo-context.ts";
import type { ModelExchange } from "./model-provider.ts";

/**
 * The prompt text of a recorded exchange, as the provider received it: the text parts of the last
 * user message of a chat completion, or an image generation's `prompt`.
 */
export function externalPrompt(exchange: ModelExchange | undefined): string {
  const request = (exchange?.request ?? {}) as {
    prompt?: unknown;
    messages?: { role: string; content: unknown }[];
  };
  if (typeof request.prompt === "string") return request.prompt;
  const message = request.messages?.findLast((candidate) => candidate.role === "user");
  if (typeof message?.content === "string") return message.content;
  if (!Array.isArray(message?.content)) return "";
  return message.content
    .filter((part): part is { type: "text"; text: string } => part?.type === "text")
    .map((part) => part.text)
    .join("\n");
}

/** The sha256 of the task context in a prompt, or undefined when it carries none. */
export async function contextHashOf(prompt: string): Promise<string | undefined> {
  const { context } = splitTaskContext(prompt);
  return context === undefined ? undefined : sha256Hex(context);
}

/**
 * A table row for an external model that received `prompt`; with `view`, the view it received and
 * `wholePrompt`, what it would have received with the whole CONTEXT.md.
 */
export async function externalRecipient(
  recipient: string,
  prompt: string,
  tokenizer: Tokenizer,
  truncated: boolean,
  view?: { name: string; wholePrompt: string },
): Promise<Recipient> {
  const contextSha256 = await contextHashOf(prompt);
  const row: Recipient = {
    recipient,
    kind: "external model",
    contextSha256,
    tokens: tokenizer.count(prompt),
    truncated: contextSha256 === undefined ? undefined : truncated,
  };
  if (view !== undefined) {
    row.view = view.name;
    row.tokensWithoutViews = tokenizer.count(view.wholePrompt);
  }
  return row;
}
