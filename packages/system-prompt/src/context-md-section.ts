import { CONTEXT_FILENAME } from "@task-context/core";

/**
 * The filled-in CONTEXT.md the prompt shows as an example, unless `contextExample` replaces it.
 * Start your own example from it, or show it to users who write CONTEXT.md by hand.
 */
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

/** Joins the phrases that apply with "and"; the ones that do not are undefined. */
const both = (...phrases: Array<string | undefined>) =>
  phrases.filter((phrase) => phrase !== undefined).join(" and ");

/**
 * A Markdown code fence around `text`: three backticks, or more than the longest run of
 * backticks inside, so that an example containing a fence cannot end this one early.
 */
function fenced(language: string, text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

/**
 * The CONTEXT.md instructions for a main agent: when to create it, what goes in, an example, and
 * what the loader does with it — bounded to `maxChars` after trimming, a warning on results when
 * cut, an empty file counting as missing, and the guiding error until it exists.
 */
export function renderContextMdSection(input: ContextMdSectionInput): string {
  const { multimodalTools, canSpawnSubagents, maxChars, example } = input;
  const tools = multimodalTools.length > 0;
  const when = [
    tools ? `- Before your first call to ${list(multimodalTools)}.` : undefined,
    canSpawnSubagents ? "- Before you spawn a subagent." : undefined,
    "- Update it whenever the task changes: every later call reads the current file.",
  ].filter((line) => line !== undefined);
  const delivery = [
    tools
      ? "Multimodal tools prepend it to every external request as `[Task Context]` followed by `[Request]`."
      : undefined,
    canSpawnSubagents
      ? `Each subagent receives a read-only copy of ${CONTEXT_FILENAME} in its own workspace.`
      : undefined,
  ].filter((line) => line !== undefined);
  const recipients = both(
    tools ? `the tools that call other models (${list(multimodalTools)})` : undefined,
    canSpawnSubagents ? "the subagents you spawn" : undefined,
  );

  return [
    `## Task context (${CONTEXT_FILENAME})`,
    "",
    `${recipients.replace(/^./, (first) => first.toUpperCase())} do not know what the user is doing, so they guess. Tell them: write ${CONTEXT_FILENAME} at the root of your workspace.`,
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
    [
      `Keep it under ${maxChars} characters; surrounding whitespace does not count. A longer file is cut, and ${tools && canSpawnSubagents ? "tool and subagent" : tools ? "tool" : "subagent"} results then carry a warning that says so. An empty file counts as missing.`,
      ...delivery,
      `Until it exists, ${both(tools ? "multimodal tool calls" : undefined, canSpawnSubagents ? "subagent spawns" : undefined)} fail with "${CONTEXT_FILENAME} not found in workspace".`,
    ].join(" "),
    "",
    `Example ${CONTEXT_FILENAME}:`,
    "",
    fenced("markdown", example),
  ].join("\n");
}
