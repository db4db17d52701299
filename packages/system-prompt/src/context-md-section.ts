import { CONTEXT_FILENAME } from "@task-context/core";

/** A filled-in CONTEXT.md shown to agents as an example. */
export const EXAMPLE_CONTEXT_MD = `# Task context

## What we are building
Lumen, a note-taking app for researchers. This run prepares the App Store listing: six
screenshots with captions and a 30-second preview video.

## Key terminology
- **Lumen**: the product. "LUMEN" in capitals on screenshots is the wordmark, not a hospital,
  clinic or lighting brand.
- **Vault**: a user's collection of notes. **Thread**: a chain of linked notes.

## Visual and brand guidelines
- Deep teal (#0F4C5C) and warm white (#FAF7F2); never pure black.
- Typeface: Inter. The wordmark is always lowercase "lumen".

## Other details
Audience: graduate students and lab researchers. Tone: calm and precise, no hype.`;

/** What the CONTEXT.md section needs to know about the agent. */
export interface ContextMdSectionInput {
  multimodalTools: readonly string[];
  canSpawnSubagents: boolean;
  maxChars: number;
  example: string;
}

const list = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(", ");

/** The instructions of spec 000: when to create CONTEXT.md, what goes in, an example. */
export function renderContextMdSection(input: ContextMdSectionInput): string {
  const { multimodalTools, canSpawnSubagents, maxChars, example } = input;
  const recipients = [
    multimodalTools.length > 0
      ? `the tools that call other models (${list(multimodalTools)})`
      : undefined,
    canSpawnSubagents ? "the subagents you spawn" : undefined,
  ].filter((recipient) => recipient !== undefined);
  const when = [
    multimodalTools.length > 0
      ? `- Before your first call to ${list(multimodalTools)}.`
      : undefined,
    canSpawnSubagents ? "- Before you spawn a subagent." : undefined,
    "- Update it whenever the task changes: every later call reads the current file.",
  ].filter((line) => line !== undefined);
  const delivery = [
    multimodalTools.length > 0
      ? `Multimodal tools prepend it to every external request as \`[Task Context]\` followed by \`[Request]\`, and fail with "${CONTEXT_FILENAME} not found in workspace" until it exists.`
      : undefined,
    canSpawnSubagents
      ? `Each subagent receives a read-only copy of ${CONTEXT_FILENAME} in its own workspace.`
      : undefined,
  ].filter((line) => line !== undefined);

  return [
    `## Task context (${CONTEXT_FILENAME})`,
    "",
    `${recipients.join(" and ").replace(/^./, (first) => first.toUpperCase())} do not know what the user is doing, so they guess. Tell them: write ${CONTEXT_FILENAME} at the root of your workspace.`,
    "",
    "When to create it:",
    ...when,
    "",
    "What to include:",
    "- What we are building or doing.",
    "- Key terminology specific to the task: names, product terms, and what they must not be mistaken for.",
    "- Visual and brand guidelines, if relevant.",
    "- Any other details tools and subagents need to understand the task.",
    "",
    `Keep it under ${maxChars} characters: a longer file is cut, and tool results then carry a warning. ${delivery.join(" ")}`,
    "",
    `Example ${CONTEXT_FILENAME}:`,
    "",
    "```markdown",
    example,
    "```",
  ].join("\n");
}
