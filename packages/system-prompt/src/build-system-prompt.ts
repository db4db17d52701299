import {
  ArgumentError,
  type ContextView,
  DEFAULT_MAX_CHARS,
  type Tokenizer,
} from "@task-context/core";
import {
  describeArgument,
  requireObject,
  requireOptionalBoolean,
  requireString,
  requireText,
  requireWholeNumber,
} from "@task-context/core/internal";
import { EXAMPLE_CONTEXT_MD, renderContextMdSection } from "./context-md-section.ts";
import { renderContextProtocolSection } from "./context-protocol-section.ts";
import { renderContextViewsSection, requireRecipientViews } from "./context-views-section.ts";
import { multimodalToolNames, type ToolList } from "./multimodal-tools.ts";

/** One part of a system prompt. Sections are ordered by `order`, then by the order given. */
export interface SystemPromptSection {
  /** A stable id, e.g. `"style"`; ids must be unique (the built-ins are `base`, `task-context`, `context-views`, `context-protocol`). */
  id: string;
  /** The section's text, as it appears in the prompt (surrounding whitespace is trimmed). */
  text: string;
  /** Lower comes first. Built-ins: base 0, task-context 100, context-views 110, context-protocol 200; default 300. */
  order?: number;
}

/** Options of {@link buildSystemPrompt}. */
export interface BuildSystemPromptOptions {
  /** The agent's own instructions, first in the prompt. */
  base?: string;
  /**
   * The tools the agent has — names, `{ name, multimodal }` descriptors, or a record keyed by name
   * (an AI SDK `tools` object); multimodal ones trigger the CONTEXT.md section.
   */
  tools?: ToolList;
  /** Whether the agent can spawn subagents (adds the CONTEXT.md and Context Protocol sections). */
  canSpawnSubagents?: boolean;
  /** More sections to compose in. */
  sections?: readonly SystemPromptSection[];
  /** Replace the example CONTEXT.md shown to the agent (default {@link EXAMPLE_CONTEXT_MD}). */
  contextExample?: string;
  /**
   * The CONTEXT.md limit quoted to the agent: a whole number ≥ 1 (default 10 000, the loader's
   * default). Quote the `maxChars` your tools and spawner load with.
   */
  maxContextChars?: number;
  /**
   * The views of CONTEXT.md recipients receive, by recipient (a tool's name, "review subagents",
   * …): the same views you give `createMediaTools({ views })` or a subagent task. When given, a
   * `context-views` section (order 110) lists which recipient sees which sections and the
   * headings to write them under.
   */
  views?: Readonly<Record<string, ContextView>>;
}

const DEFAULT_ORDER = 300;

function checkSection(value: unknown, index: number): Required<SystemPromptSection> {
  const argument = `sections[${index}]`;
  const section = requireObject(argument, value, "a section { id, text, order? }");
  const id = requireText(`${argument}.id`, section.id, "the section's id, a non-empty string");
  const text = requireString(`${argument}.text`, section.text);
  const { order = DEFAULT_ORDER } = section;
  if (typeof order !== "number" || !Number.isFinite(order)) {
    throw new ArgumentError({
      argument: `${argument}.order`,
      message: `expected a finite number, got ${describeArgument(order)}.`,
    });
  }
  return { id, text, order };
}

/**
 * The ordered sections {@link buildSystemPrompt} joins, after checking every option
 * (`ArgumentError` naming the first unusable one).
 */
export function buildSystemPromptSections(
  options: BuildSystemPromptOptions = {},
): SystemPromptSection[] {
  requireObject("options", options, "build options");
  const base = options.base === undefined ? "" : requireString("base", options.base).trim();
  const multimodalTools = multimodalToolNames(options.tools === undefined ? [] : options.tools);
  const canSpawnSubagents =
    requireOptionalBoolean("canSpawnSubagents", options.canSpawnSubagents) ?? false;
  const example =
    options.contextExample === undefined
      ? EXAMPLE_CONTEXT_MD
      : requireString("contextExample", options.contextExample).trim();
  if (example === "") {
    throw new ArgumentError({
      argument: "contextExample",
      message: "expected an example CONTEXT.md, got only whitespace.",
    });
  }
  const maxChars =
    options.maxContextChars === undefined
      ? DEFAULT_MAX_CHARS
      : requireWholeNumber("maxContextChars", options.maxContextChars, 1);
  const views = requireRecipientViews(options.views);
  const extra = options.sections === undefined ? [] : options.sections;
  if (!Array.isArray(extra)) {
    throw new ArgumentError({
      argument: "sections",
      message: `expected an array of sections { id, text, order? }, got ${describeArgument(extra)}.`,
    });
  }

  const sections: Array<Required<SystemPromptSection>> = [];
  if (base !== "") sections.push({ id: "base", text: base, order: 0 });
  if (multimodalTools.length > 0 || canSpawnSubagents) {
    sections.push({
      id: "task-context",
      order: 100,
      text: renderContextMdSection({ multimodalTools, canSpawnSubagents, maxChars, example }),
    });
  }
  if (views.length > 0) {
    sections.push({ id: "context-views", order: 110, text: renderContextViewsSection(views) });
  }
  if (canSpawnSubagents) {
    sections.push({ id: "context-protocol", order: 200, text: renderContextProtocolSection() });
  }
  sections.push(...extra.map(checkSection));

  const seen = new Set<string>();
  for (const section of sections) {
    if (seen.has(section.id)) {
      throw new ArgumentError({
        argument: "sections",
        message: `two sections have the id ${JSON.stringify(section.id)}; give each a unique id.`,
      });
    }
    seen.add(section.id);
  }
  // Array.prototype.sort is stable, so equal orders keep the order they were given in.
  return sections
    .map((section) => ({ ...section, text: section.text.trim() }))
    .filter((section) => section.text !== "")
    .sort((a, b) => a.order - b.order);
}

/**
 * Builds an agent's system prompt. When the agent has multimodal tools or can spawn subagents, it
 * includes the CONTEXT.md instructions — when to create it, what to include, an example, and how
 * tools and the spawner use it (bounded to `maxContextChars`, a warning when cut, an error until it
 * exists); agents that spawn subagents also learn to pass project context as a Context Protocol v1
 * block. The output is deterministic: the same options give the same text.
 *
 * Throws `ArgumentError` for an option of the wrong type or shape (`argument` names it: `"base"`,
 * `"tools[2]"`, `"sections[0].id"`, …). See
 * https://github.com/task-context/task-context/blob/main/docs/system-prompt.md
 *
 * @example
 * ```ts source="../examples/build-system-prompt.ts#buildSystemPrompt"
 * const system = buildSystemPrompt({
 *   base: "You are a launch assistant for mobile apps.",
 *   tools: ["read_media", "generate_media", "web_search"], // names, { name, multimodal: true }, or an AI SDK tools record
 *   canSpawnSubagents: true,
 * });
 * ```
 */
export function buildSystemPrompt(options: BuildSystemPromptOptions = {}): string {
  return buildSystemPromptSections(options)
    .map((section) => section.text)
    .join("\n\n");
}

/** A built system prompt with the token cost of each section. */
export interface SystemPromptMeasurement {
  /** The prompt, exactly as {@link buildSystemPrompt} builds it. */
  text: string;
  /** Tokens of the whole prompt. */
  tokens: number;
  /** Each section's id and tokens, in prompt order. */
  sections: Array<{ id: string; tokens: number }>;
  /** The tokenizer's name, e.g. `"o200k_base"`. */
  tokenizer: string;
}

/**
 * {@link buildSystemPrompt} plus what each section costs in tokens, so users see what the prompt
 * costs. Pass `o200kTokenizer` from `@task-context/core/o200k` for OpenAI's exact counts.
 *
 * @example
 * ```ts source="../examples/measure-system-prompt.ts#measureSystemPrompt"
 * const measured = measureSystemPrompt(
 *   { base: "You are a launch assistant.", tools: ["read_media"], canSpawnSubagents: true },
 *   o200kTokenizer,
 * );
 * console.log(measured.sections);
 * // [{ id: "base", tokens: 6 }, { id: "task-context", tokens: … }, { id: "context-protocol", tokens: … }]
 * console.log(measured.tokens, measured.tokenizer); // the whole prompt's count, "o200k_base"
 * ```
 */
export function measureSystemPrompt(
  options: BuildSystemPromptOptions,
  tokenizer: Tokenizer,
): SystemPromptMeasurement {
  const counter = requireObject("tokenizer", tokenizer, "a Tokenizer");
  if (typeof counter.count !== "function") {
    throw new ArgumentError({
      argument: "tokenizer",
      message: "expected a Tokenizer (an object with count), got an object without count.",
    });
  }
  const sections = buildSystemPromptSections(options);
  const text = sections.map((section) => section.text).join("\n\n");
  return {
    text,
    tokens: tokenizer.count(text),
    sections: sections.map((section) => ({
      id: section.id,
      tokens: tokenizer.count(section.text),
    })),
    tokenizer: String(tokenizer.name),
  };
}
