import { ArgumentError, DEFAULT_MAX_CHARS, type Tokenizer } from "@task-context/core";
import { EXAMPLE_CONTEXT_MD, renderContextMdSection } from "./context-md-section.ts";
import { renderContextProtocolSection } from "./context-protocol-section.ts";
import { multimodalToolNames, type ToolList } from "./multimodal-tools.ts";

/** One part of a system prompt. Sections are ordered by `order`, then by the order given. */
export interface SystemPromptSection {
  /** A stable id, e.g. `"task-context"`; ids must be unique. */
  id: string;
  /** The section's text, as it appears in the prompt. */
  text: string;
  /** Lower comes first. Built-ins: base 0, task-context 100, context-protocol 200; default 300. */
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
  /** Replace the example CONTEXT.md shown to the agent. */
  contextExample?: string;
  /** The CONTEXT.md limit quoted to the agent (default 10 000, the loader's default). */
  maxContextChars?: number;
}

/** The ordered sections {@link buildSystemPrompt} joins. */
export function buildSystemPromptSections(
  options: BuildSystemPromptOptions = {},
): SystemPromptSection[] {
  const multimodalTools = multimodalToolNames(options.tools ?? []);
  const canSpawnSubagents = options.canSpawnSubagents ?? false;
  const sections: SystemPromptSection[] = [];
  if (options.base !== undefined && options.base.trim() !== "") {
    sections.push({ id: "base", text: options.base.trim(), order: 0 });
  }
  if (multimodalTools.length > 0 || canSpawnSubagents) {
    sections.push({
      id: "task-context",
      order: 100,
      text: renderContextMdSection({
        multimodalTools,
        canSpawnSubagents,
        maxChars: options.maxContextChars ?? DEFAULT_MAX_CHARS,
        example: (options.contextExample ?? EXAMPLE_CONTEXT_MD).trim(),
      }),
    });
  }
  if (canSpawnSubagents)
    sections.push({ id: "context-protocol", order: 200, text: renderContextProtocolSection() });
  for (const section of options.sections ?? [])
    sections.push({ ...section, order: section.order ?? 300 });

  const seen = new Set<string>();
  for (const section of sections) {
    if (seen.has(section.id)) {
      throw new ArgumentError({
        argument: "sections",
        message: `two sections have the id "${section.id}"; give each a unique id.`,
      });
    }
    seen.add(section.id);
  }
  // Array.prototype.sort is stable, so equal orders keep the order they were given in.
  return sections
    .filter((section) => section.text.trim() !== "")
    .sort((a, b) => (a.order ?? 300) - (b.order ?? 300));
}

/**
 * Builds an agent's system prompt. When the agent has multimodal tools or can spawn subagents, it
 * includes the CONTEXT.md instructions of spec 000 (when to create it, what to include, an
 * example); agents that spawn subagents also learn Context Protocol v1. The output is
 * deterministic: the same options give the same text.
 *
 * @example
 * ```ts
 * const system = buildSystemPrompt({
 *   base: "You are a marketing assistant for app launches.",
 *   tools: ["read_media", "generate_media", "web_search"],
 *   canSpawnSubagents: true,
 * });
 * ```
 */
export function buildSystemPrompt(options: BuildSystemPromptOptions = {}): string {
  return buildSystemPromptSections(options)
    .map((section) => section.text.trim())
    .join("\n\n");
}

/** A built system prompt with the token cost of each section. */
export interface SystemPromptMeasurement {
  text: string;
  /** Tokens of the whole prompt. */
  tokens: number;
  sections: Array<{ id: string; tokens: number }>;
  tokenizer: string;
}

/**
 * {@link buildSystemPrompt} plus what each section costs in tokens, so users see what the prompt
 * costs. Pass `o200kTokenizer` from `@task-context/core/o200k` for OpenAI's exact counts.
 *
 * @example
 * ```ts
 * import { o200kTokenizer } from "@task-context/core/o200k";
 * const { sections, tokens } = measureSystemPrompt({ tools: ["read_media"] }, o200kTokenizer);
 * ```
 */
export function measureSystemPrompt(
  options: BuildSystemPromptOptions,
  tokenizer: Tokenizer,
): SystemPromptMeasurement {
  const sections = buildSystemPromptSections(options);
  const text = sections.map((section) => section.text.trim()).join("\n\n");
  return {
    text,
    tokens: tokenizer.count(text),
    sections: sections.map((section) => ({
      id: section.id,
      tokens: tokenizer.count(section.text.trim()),
    })),
    tokenizer: tokenizer.name,
  };
}
