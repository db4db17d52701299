import {
  describeArgument,
  requireObject,
  requireString,
  requireWholeNumber,
} from "../arguments.ts";
import { ArgumentError } from "../errors/argument-error.ts";
import { fitTokenBudget } from "../fit-token-budget.ts";
import { graphemeBoundaryAtOrBefore } from "../grapheme.ts";
import { requireTokenizer } from "../require-tokenizer.ts";
import type { Tokenizer } from "../tokenizer.ts";
import { locateHeadings } from "./context-headings.ts";
import { headingKey } from "./select-context-view.ts";

/** The budget {@link fitContextSections} fits a text into: characters, or tokens of a tokenizer. */
export type ContextSectionBudget =
  | { unit: "characters"; amount: number }
  | { unit: "tokens"; amount: number; tokenizer: Tokenizer };

/** What {@link fitContextSections} kept of a text, and how. */
export interface FittedContextSections {
  /** The kept parts, in the text's order, trimmed; "" when nothing fits. */
  content: string;
  /** The headings of the sections kept, in the text's order. */
  kept: string[];
  /** The headings of the sections left out, in the text's order. */
  dropped: string[];
  /** True when the top of the text (its goal) had to be cut short to fit at all. */
  cut: boolean;
}

/** Headings of a key-terms section, compared by {@link headingKey}: the first read after the goal. */
const KEY_TERMS = /^(key (terms|terminology|concepts)|terms|terminology|glossary|vocabulary)$/;

/** A piece of the text: from one heading's line to the next heading's, or the text before them. */
interface Block {
  start: number;
  end: number;
  heading: string | undefined;
  level: number;
}

/** Splits `text` at every ATX heading (headings in code fences are not headings). */
function blocksOf(text: string): Block[] {
  const headings = locateHeadings(text);
  const blocks: Block[] = [];
  const first = headings[0]?.start ?? text.length;
  if (text.slice(0, first).trim() !== "")
    blocks.push({ start: 0, end: first, heading: undefined, level: 0 });
  for (const [index, heading] of headings.entries()) {
    const end = headings[index + 1]?.start ?? text.length;
    blocks.push({ start: heading.start, end, heading: heading.text, level: heading.level });
  }
  return blocks;
}

/** Whether a block has text beyond its heading line. */
function hasBody(text: string, block: Block): boolean {
  const body = text.slice(block.start, block.end);
  if (block.heading === undefined) return body.trim() !== "";
  const lineEnd = body.indexOf("\n");
  return lineEnd !== -1 && body.slice(lineEnd + 1).trim() !== "";
}

/**
 * The order in which blocks are considered: the top of the text (every block up to and including
 * the first with a body — the title and the goal, "What we are building"), then key-term
 * sections with their sub-sections, then every other block in the text's order.
 */
function priorityOrder(text: string, blocks: Block[]): { top: number[]; rest: number[] } {
  const firstBody = blocks.findIndex((block) => hasBody(text, block));
  const topEnd = firstBody === -1 ? blocks.length : firstBody + 1;
  const top = blocks.slice(0, topEnd).map((_, index) => index);
  const keyTerms: number[] = [];
  let within: number | undefined; // the level of the key-terms section being walked, if any
  for (let index = topEnd; index < blocks.length; index++) {
    const block = blocks[index] as Block;
    if (within !== undefined && block.level > within) keyTerms.push(index);
    else if (block.heading !== undefined && KEY_TERMS.test(headingKey(block.heading))) {
      within = block.level;
      keyTerms.push(index);
    } else within = undefined;
  }
  const others = blocks
    .map((_, index) => index)
    .filter((index) => index >= topEnd && !keyTerms.includes(index));
  return { top, rest: [...keyTerms, ...others] };
}

/** Throws `ArgumentError` naming the field unless `value` is a {@link ContextSectionBudget}. */
function requireBudget(value: unknown): void {
  const fields = requireObject(
    "budget",
    value,
    '{ unit: "characters" | "tokens", amount, tokenizer? }',
  );
  requireWholeNumber("budget.amount", fields.amount, 0);
  if (fields.unit === "tokens") requireTokenizer("budget.tokenizer", fields.tokenizer);
  else if (fields.unit !== "characters")
    throw new ArgumentError({
      argument: "budget.unit",
      message: `expected "characters" or "tokens", got ${typeof fields.unit === "string" ? JSON.stringify(fields.unit) : describeArgument(fields.unit)}.`,
    });
}

/** The size of `text` in the budget's unit. */
function measure(text: string, budget: ContextSectionBudget): number {
  return budget.unit === "characters" ? text.length : budget.tokenizer.count(text);
}

/** `text` cut to the budget: at a grapheme boundary, or by the tokenizer. */
async function cutToBudget(text: string, budget: ContextSectionBudget): Promise<string> {
  if (budget.unit === "characters")
    return text.slice(0, graphemeBoundaryAtOrBefore(text, budget.amount)).trim();
  return (await fitTokenBudget(text, budget.amount, budget.tokenizer)).trim();
}

/**
 * Fits a Markdown text (CONTEXT.md, or a view of it) into a budget by whole sections, most
 * important first, for a recipient whose prompt has room for only part of it. The top of the text
 * — every section up to and including the first with text under its heading, which in CONTEXT.md
 * is the title and "What we are building" — comes first; then sections headed "Key terminology",
 * "Key terms", "Glossary" (or "Terms", "Terminology", "Vocabulary", "Key concepts") with their
 * sub-sections; then the other sections in the text's order, each one that still fits. What is
 * kept stays in the text's order. When even the top does not fit, it is cut to the budget
 * (`cut: true`) and nothing else is kept. Headings are ATX headings, as views match them.
 *
 * @example
 * ```ts source="../../examples/fit-context-sections.ts#fitContextSections"
 * const fitted = await fitContextSections(
 *   "# Task context\n\n## What we are building\nLumen, a notes app.\n\n" +
 *     "## Other details\nRun pnpm test before every commit.\n\n## Key terminology\n- **Vault**: notes.",
 *   { unit: "characters", amount: 100 },
 * );
 * // { content: "# Task context\n\n## What we are building\nLumen, a notes app.\n\n## Key terminology\n- **Vault**: notes.",
 * //   kept: ["Task context", "What we are building", "Key terminology"], dropped: ["Other details"], cut: false }
 * ```
 */
export async function fitContextSections(
  text: string,
  budget: ContextSectionBudget,
): Promise<FittedContextSections> {
  requireString("text", text);
  requireBudget(budget);
  const trimmed = text.trim();
  const blocks = blocksOf(trimmed);
  const headings = (indexes: Iterable<number>) =>
    [...indexes]
      .sort((a, b) => a - b)
      .flatMap((index) => {
        const heading = blocks[index]?.heading;
        return heading === undefined ? [] : [heading];
      });
  const join = (indexes: Set<number>) =>
    blocks
      .filter((_, index) => indexes.has(index))
      .map((block) => trimmed.slice(block.start, block.end))
      .join("")
      .trim();
  const all = new Set(blocks.map((_, index) => index));
  if (measure(trimmed, budget) <= budget.amount)
    return { content: trimmed, kept: headings(all), dropped: [], cut: false };

  const { top, rest } = priorityOrder(trimmed, blocks);
  const kept = new Set(top);
  const topText = join(kept);
  if (measure(topText, budget) > budget.amount) {
    const content = await cutToBudget(topText, budget);
    const shown = content === "" ? new Set<number>() : kept;
    return {
      content,
      kept: headings(shown),
      dropped: headings([...all].filter((index) => !shown.has(index))),
      cut: true,
    };
  }
  for (const index of rest) {
    kept.add(index);
    if (measure(join(kept), budget) > budget.amount) kept.delete(index);
  }
  return {
    content: join(kept),
    kept: headings(kept),
    dropped: headings([...all].filter((index) => !kept.has(index))),
    cut: false,
  };
}
