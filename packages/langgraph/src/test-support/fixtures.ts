// Test support: a CONTEXT.md with the sections views select, workspaces over it, and a chat model
// (the framework's own FakeChatModel) that records what it was sent and answers with how much
// task context its last message carried.
import type { BaseMessage } from "@langchain/core/messages";
import { AIMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { FakeChatModel } from "@langchain/core/utils/testing";
import { memoryWorkspace, splitTaskContext, type Workspace } from "@task-context/core";

/** A CONTEXT.md with the sections the system prompt teaches agents to write. */
export const CONTEXT = [
  "# Task context",
  "",
  "## What we are building",
  "Lumen, a note-taking app for researchers.",
  "",
  "## Key terminology",
  "- **Vault**: a folder of notes.",
  "",
  "## Visual and brand guidelines",
  "Teal #0F766E, no gradients.",
  "",
  "## Other details",
  "Run pnpm test before every commit.",
].join("\n");

/** What the brief view (What we are building, Key terminology) selects of {@link CONTEXT}. */
export const BRIEF = [
  "## What we are building",
  "Lumen, a note-taking app for researchers.",
  "",
  "## Key terminology",
  "- **Vault**: a folder of notes.",
].join("\n");

export { sha256 } from "@task-context/adapter-test-kit";

/** A workspace holding {@link CONTEXT} as CONTEXT.md (or the files given). */
export const workspaceWith = (
  files: Record<string, string> = { "CONTEXT.md": CONTEXT },
): Workspace => memoryWorkspace(files);

/** The text of a message's content: a string, or its text blocks joined. */
export function textOf(message: BaseMessage): string {
  const { content } = message;
  if (typeof content === "string") return content;
  return content
    .map((block) => (block.type === "text" && typeof block.text === "string" ? block.text : ""))
    .join("");
}

/**
 * LangChain's FakeChatModel, recording every call's messages and answering
 * `Received N characters of task context.` for its last message.
 */
export class RecordingChatModel extends FakeChatModel {
  readonly calls: BaseMessage[][] = [];

  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.calls.push(messages);
    const last = messages.at(-1);
    const context = last === undefined ? undefined : splitTaskContext(textOf(last)).context;
    const text = `Received ${context?.length ?? 0} characters of task context.`;
    return { generations: [{ text, message: new AIMessage(text) }] };
  }

  /** The prebuilt agents bind their tools; this model calls none. */
  override bindTools(): this {
    return this;
  }
}
