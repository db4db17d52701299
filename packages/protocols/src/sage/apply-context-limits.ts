import { ArgumentError, type Tokenizer, type UntrustedFinding } from "@task-context/core";
import { describeArgument } from "@task-context/core/internal";
import { ContextTooLargeError } from "../errors/context-too-large-error.ts";
import type { ContextLimits } from "../schemas/context-limits.ts";
import type { ContextItem, SubagentContext } from "../schemas/subagent-context.ts";
import { contextItemLabel, neutraliseFrom } from "./earlier-work.ts";
import { renderSanitizedSubagentContext } from "./render-subagent-context.ts";
import type { Summarizer } from "./summarize.ts";
import { sanitizeXmlText } from "./xml-text.ts";

/**
 * The fewest tokens the `max_total` pass summarizes or truncates an item to. Below this a
 * summary says too little, so an item with a path becomes a file reference instead, and a
 * pathless item stops shrinking (and the document may be too large).
 */
export const MINIMUM_ITEM_TOKENS = 64;

/** Rounds of "render, count exactly, shrink by the excess" before giving up. */
const MAX_ROUNDS = 6;

/** What {@link applyContextLimits} needs besides the document and the limits. */
interface ApplyContextLimitsOptions {
  /** Counts and truncates; its counts decide every limit. */
  tokenizer: Tokenizer;
  /** Shortens an item that is over its budget. */
  summarize: Summarizer;
  /** The subagent type whose limits apply, for the error message. */
  subagentType: string;
}

/** A document that fits its limits, with what was done to get there. */
interface FittedContext {
  /** The document as it will be written (sanitized, items reduced). */
  doc: SubagentContext;
  /** Its XML. */
  xml: string;
  /** Tokens of `xml`, counted exactly. */
  tokens: number;
  /** One line per context item that was summarized, referenced or truncated. */
  warnings: string[];
  /**
   * What was neutralised in the shortened content of earlier work: a summary, or a cut, may
   * hold posing text that the item as given did not (a cut can leave a line that is exactly
   * `[Request]`).
   */
  findings: UntrustedFinding[];
}

type Mode = "keep" | "reduce" | "reference";
type Action = "summarized" | "referenced" | "truncated";

interface Plan {
  /** The item's index in the document's context. */
  index: number;
  /** The sanitized item as the task gave it. */
  original: ContextItem;
  originalTokens: number;
  /** The per-item limit that applies, and its name. */
  limit: number;
  limitName: "max_file_content" | "max_prior_output";
  mode: Mode;
  /** The budget the content is reduced to (for "reduce"). */
  target: number;
  /** Tokens of the content: planned, then as realised. */
  size: number;
  /** Why it is reduced: its own limit, or the document's max_total. */
  reason?: "item" | "total";
}

interface Realised {
  item: ContextItem;
  tokens: number;
  action?: Action;
  /** What was neutralised in the shortened content of earlier work. */
  findings?: UntrustedFinding[];
}

/** Sacrificed first → last: file content and other kinds, prior output, code standards, story. */
const RANK: Record<string, number> = { "prior-output": 1, "code-standards": 2, "story-excerpt": 3 };
const rankOf = (type: string) => RANK[type] ?? 0;

/** The item that replaces content too large to include: the path stays, the content is a note. */
function referenceTo(plan: Plan): ContextItem {
  const { original, originalTokens } = plan;
  return {
    type: "file-reference",
    content: `${original.type} of ${originalTokens} tokens left out to fit the context limits; read the file if you need it.`,
    path: original.path as string,
  };
}

function describe(plan: Plan, limits: ContextLimits, realised: Realised): string {
  const { original } = plan;
  const label = `Context item ${plan.index + 1} (${original.type}${original.path === undefined ? "" : ` ${JSON.stringify(original.path)}`}, ${plan.originalTokens} tokens)`;
  const why =
    plan.reason === "item"
      ? `is over the ${plan.limitName} limit of ${plan.limit} tokens`
      : `was reduced to fit max_total (${limits.max_total} tokens)`;
  const what =
    realised.action === "referenced"
      ? "replaced with a file reference"
      : `${realised.action} to ${realised.tokens} tokens`;
  return `${label} ${why}: ${what}.`;
}

/**
 * Sage's step 3, on a sanitized, valid document: brings every context item within its own
 * limit (`max_prior_output` for prior-output items, `max_file_content` for every other kind), then
 * the whole rendered document within `max_total`. Each over-budget item goes through Sage's
 * strategies in order — summarize; if the summary is still over and the item has a path, replace
 * it with a `file-reference` item; otherwise truncate the summary.
 *
 * For `max_total`, items are reduced one at a time, just enough, in this priority order: file
 * content and other kinds first (largest first, later items before earlier ones at equal size),
 * then prior output, then code standards, then story excerpts. An item asked to go below
 * {@link MINIMUM_ITEM_TOKENS} becomes a file reference when it has a path, or shrinks to that
 * minimum when it has none. Task, instructions, scope and output format are never reduced. Sizes
 * are planned from one count per item; the rendered document is then counted exactly and shrunk
 * again by any excess. When nothing is left to reduce, throws {@link ContextTooLargeError}.
 *
 * Item limits count the item's text (what the subagent reads); `max_total` counts the XML file.
 */
export async function applyContextLimits(
  doc: SubagentContext,
  limits: ContextLimits,
  { tokenizer, summarize, subagentType }: ApplyContextLimitsOptions,
): Promise<FittedContext> {
  const plans: Plan[] = doc.context.map((original, index) => {
    const originalTokens = tokenizer.count(original.content);
    const prior = original.type === "prior-output";
    const limit = prior ? limits.max_prior_output : limits.max_file_content;
    const over = originalTokens > limit;
    return {
      index,
      original,
      originalTokens,
      limit,
      limitName: prior ? "max_prior_output" : "max_file_content",
      mode: over ? "reduce" : "keep",
      target: over ? limit : originalTokens,
      size: over ? limit : originalTokens,
      ...(over ? { reason: "item" as const } : {}),
    };
  });
  const requiredTokens = tokenizer.count(renderSanitizedSubagentContext({ ...doc, context: [] }));
  const overhead = tokenizer.count(
    renderSanitizedSubagentContext({
      ...doc,
      context: doc.context.map((item) => ({ ...item, content: "" })),
    }),
  );
  const referenceTokens = new Map<number, number>();
  const referenceCost = (plan: Plan) => {
    let tokens = referenceTokens.get(plan.index);
    if (tokens === undefined) {
      tokens = tokenizer.count(referenceTo(plan).content);
      referenceTokens.set(plan.index, tokens);
    }
    return tokens;
  };

  /** Lowers planned sizes by `overflow` tokens in priority order; returns what is left over. */
  const shrink = (overflow: number): number => {
    const order = [...plans].sort(
      (a, b) =>
        rankOf(a.original.type) - rankOf(b.original.type) || b.size - a.size || b.index - a.index,
    );
    for (const plan of order) {
      if (overflow <= 0) break;
      if (plan.mode === "reference") continue;
      const current = plan.size;
      const wanted = current - overflow;
      const reduceTo = (mode: Mode, tokens: number) => {
        Object.assign(plan, { mode, target: tokens, size: tokens, reason: "total" });
        overflow -= current - tokens;
      };
      if (wanted >= MINIMUM_ITEM_TOKENS) reduceTo("reduce", wanted);
      else if (plan.original.path !== undefined && referenceCost(plan) < current) {
        reduceTo("reference", referenceCost(plan));
      } else if (current > MINIMUM_ITEM_TOKENS) reduceTo("reduce", MINIMUM_ITEM_TOKENS);
    }
    return overflow;
  };

  const cache = new Map<string, Promise<Realised>>();
  const realise = (plan: Plan): Promise<Realised> => {
    const key = `${plan.index}:${plan.mode}:${plan.target}`;
    let result = cache.get(key);
    if (result === undefined) {
      result = realiseUncached(plan);
      cache.set(key, result);
    }
    return result;
  };
  const realiseUncached = async (plan: Plan): Promise<Realised> => {
    const { original, target } = plan;
    if (plan.mode === "keep") return { item: original, tokens: plan.originalTokens };
    const reference = (): Realised => ({
      item: referenceTo(plan),
      tokens: referenceCost(plan),
      action: "referenced",
    });
    if (plan.mode === "reference") return reference();
    const info = {
      itemType: original.type,
      tokenizer,
      ...(original.path === undefined ? {} : { path: original.path }),
    };
    const returned: unknown = await summarize(original.content, target, info);
    if (typeof returned !== "string") {
      throw new ArgumentError({
        argument: "summarize",
        message: `expected a summarizer that returns a string (or a promise of one), got one that returned ${describeArgument(returned)}.`,
      });
    }
    const summary = sanitizeXmlText(returned);
    const summaryTokens = tokenizer.count(summary);
    // Earlier work stays neutralised after it is shortened (see FittedContext.findings).
    const shortened = (content: string, action: Action): Realised => {
      if (original.untrusted !== true) {
        return { item: { ...original, content }, tokens: tokenizer.count(content), action };
      }
      const label = `${contextItemLabel(original, plan.index)}, ${action}`;
      const fenced = neutraliseFrom(label, content);
      return {
        item: { ...original, content: fenced.text },
        tokens: tokenizer.count(fenced.text),
        action,
        findings: fenced.findings,
      };
    };
    if (summaryTokens <= target) return shortened(summary, "summarized");
    if (original.path !== undefined && referenceCost(plan) <= target) return reference();
    return shortened(tokenizer.truncate(summary, target), "truncated");
  };

  const tooLarge = (tokens: number) =>
    new ContextTooLargeError({
      taskId: doc.task.id,
      subagentType,
      tokens,
      maxTotal: limits.max_total,
      requiredTokens,
    });

  const estimate = overhead + plans.reduce((sum, plan) => sum + plan.size, 0);
  if (estimate > limits.max_total) {
    const left = shrink(estimate - limits.max_total);
    if (left > 0) throw tooLarge(limits.max_total + left);
  }
  for (let round = 1; ; round++) {
    const realised = await Promise.all(plans.map(realise));
    const fitted: SubagentContext = { ...doc, context: realised.map((entry) => entry.item) };
    const xml = renderSanitizedSubagentContext(fitted);
    const tokens = tokenizer.count(xml);
    if (tokens <= limits.max_total) {
      const warnings = plans.flatMap((plan, index) => {
        const entry = realised[index] as Realised;
        return entry.action === undefined ? [] : [describe(plan, limits, entry)];
      });
      const findings = realised.flatMap((entry) => entry.findings ?? []);
      return { doc: fitted, xml, tokens, warnings, findings };
    }
    // The plan's sizes were estimates (escaping, markup, summaries): shrink by the real excess.
    for (const [index, plan] of plans.entries()) plan.size = (realised[index] as Realised).tokens;
    if (round === MAX_ROUNDS || shrink(tokens - limits.max_total) > 0) throw tooLarge(tokens);
  }
}
