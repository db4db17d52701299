import type { Tokenizer } from "@task-context/core";

/** What a {@link Summarizer} knows about the text it shortens. */
export interface SummarizeInfo {
  /** The context item's type, such as `file-content` or `prior-output`. */
  itemType: string;
  /** The file the item comes from, when it has one. */
  path?: string;
  /** The tokenizer `maxTokens` is counted in. */
  tokenizer: Tokenizer;
}

/**
 * Shortens `text` to at most `maxTokens` tokens of `info.tokenizer` (Sage's step 3: "Summarize
 * content"). `generateContext` checks the result and falls back to a file reference or truncation
 * when it is still over, so a summarizer may be approximate. Pass a model-backed one to
 * `generateContext`'s `summarize` option; {@link extractiveSummarizer} is the default.
 */
export type Summarizer = (
  text: string,
  maxTokens: number,
  info: SummarizeInfo,
) => string | Promise<string>;

/** A stretch of the text the summary may keep: a heading, or a sentence (or line) of a paragraph. */
interface Unit {
  start: number;
  end: number;
  /** 0 for headings, 1 + its index in the paragraph for sentences: lower is kept first. */
  rank: number;
  /** The paragraph's previous sentence, which must be kept for this one to be. */
  previous?: number;
}

const HEADING = /^#{1,6}[ \t]/;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]/;
// A sentence ends after a terminator (and closing quotes or brackets) followed by a space, after
// a CJK full stop, or at a line end (for code and wrapped text, a line is the unit).
const SENTENCE_END =
  /[.!?]["'\u2019\u201D)\]]*(?=[ \t])|[\u3002\uFF01\uFF1F]["'\u2019\u201D\u300D\u300F)\]]*/g;
/** Tokens set aside per kept unit for the separator or omission mark that precedes it. */
const SEPARATOR_ALLOWANCE = 1;
/** Units that do not fit may be skipped this many times before selection stops. */
const MAX_SKIPPED = 8;
const MAX_REBUILDS = 4;

/** Splits one paragraph line range into sentence units. */
function addSentences(text: string, start: number, end: number, units: Unit[]): void {
  let rank = 1;
  let unitStart = start;
  const push = (unitEnd: number) => {
    let from = unitStart;
    while (from < unitEnd && (text[from] === " " || text[from] === "\t")) from++;
    if (from < unitEnd) {
      const unit: Unit = { start: from, end: unitEnd, rank: rank++ };
      if (unit.rank > 1) unit.previous = units.length - 1;
      units.push(unit);
    }
  };
  for (let lineStart = start; lineStart < end; ) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline === -1 || newline > end ? end : newline;
    const line = text.slice(lineStart, lineEnd);
    SENTENCE_END.lastIndex = 0;
    for (let match = SENTENCE_END.exec(line); match !== null; match = SENTENCE_END.exec(line)) {
      const sentenceEnd = lineStart + match.index + match[0].length;
      push(sentenceEnd);
      unitStart = sentenceEnd;
    }
    push(lineEnd);
    unitStart = lineEnd + 1;
    lineStart = lineEnd + 1;
  }
}

/** The headings and sentences of `text`, in document order. */
function unitsOf(text: string): Unit[] {
  const units: Unit[] = [];
  let paragraphStart = -1;
  const closeParagraph = (end: number) => {
    if (paragraphStart !== -1) addSentences(text, paragraphStart, end, units);
    paragraphStart = -1;
  };
  for (let lineStart = 0; lineStart <= text.length; ) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    if (line.trim() === "") {
      closeParagraph(lineStart - 1);
    } else if (HEADING.test(line)) {
      closeParagraph(lineStart - 1);
      units.push({ start: lineStart, end: lineEnd, rank: 0 });
    } else {
      if (LIST_ITEM.test(line)) closeParagraph(lineStart - 1);
      if (paragraphStart === -1) paragraphStart = lineStart;
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  closeParagraph(text.length);
  // Trailing spaces belong to the separator, not the unit (no unit is blank, so none empties).
  for (const unit of units) {
    while (unit.end > unit.start && /[ \t\r]/.test(text[unit.end - 1] as string)) unit.end--;
  }
  return units;
}

/**
 * The mark for omitted units that follow the unit at `index` (or precede the first unit, for -1):
 * on its own line when the omitted text starts on a new line, inline otherwise.
 */
function omission(text: string, units: readonly Unit[], index: number): string {
  const before = units[index];
  const after = units[index + 1] as Unit;
  const separator = text.slice(before === undefined ? 0 : before.end, after.start);
  return separator.includes("\n") ? "\n…" : " …";
}

/** The kept units in document order, joined by their original separators or an omission mark. */
function assemble(text: string, units: readonly Unit[], kept: readonly number[]): string {
  const sorted = [...kept].sort((a, b) => a - b);
  let result = "";
  let previous = -1;
  for (const index of sorted) {
    const unit = units[index] as Unit;
    if (previous === -1) {
      if (index > 0) result += "…\n";
    } else {
      const separator = text.slice((units[index - 1] as Unit).end, unit.start);
      result +=
        index === previous + 1 ? separator : `${omission(text, units, previous)}${separator}`;
    }
    result += text.slice(unit.start, unit.end);
    previous = index;
  }
  if (previous !== -1 && previous < units.length - 1) result += omission(text, units, previous);
  return result;
}

/**
 * The default summarizer: extractive and deterministic, no model. It keeps the text's own words:
 * every Markdown heading first, then the first sentence (or line) of each paragraph and list item,
 * then second sentences, and so on, as long as they fit in `maxTokens`; the kept pieces appear in
 * their original order, and each omission is marked with `…`. On code, where each line is a unit,
 * this keeps the first line of every blank-line-separated block (signatures, leading comments).
 * When not even the first piece fits, it returns the text truncated to `maxTokens`.
 *
 * For example, `"# Export\nUsers export notes. They pick a folder.\n"` in 10 approximate tokens
 * becomes `"# Export\nUsers export notes. …"`.
 */
export const extractiveSummarizer: Summarizer = (text, maxTokens, { tokenizer }) => {
  if (maxTokens <= 0) return "";
  const units = unitsOf(text);
  const byRank = units
    .map((unit, index) => ({ unit, index }))
    .sort((a, b) => a.unit.rank - b.unit.rank || a.index - b.index);
  const kept: Array<{ index: number; cost: number }> = [];
  const isKept = new Set<number>();
  let used = 0;
  let skipped = 0;
  for (const { unit, index } of byRank) {
    // A paragraph's sentences are kept from its start: never a second without the first.
    if (unit.previous !== undefined && !isKept.has(unit.previous)) continue;
    const cost = tokenizer.count(text.slice(unit.start, unit.end)) + SEPARATOR_ALLOWANCE;
    if (used + cost <= maxTokens) {
      kept.push({ index, cost });
      isKept.add(index);
      used += cost;
    } else if (++skipped > MAX_SKIPPED) break;
  }
  for (let round = 0; round < MAX_REBUILDS && kept.length > 0; round++) {
    const summary = assemble(
      text,
      units,
      kept.map((entry) => entry.index),
    );
    const excess = tokenizer.count(summary) - maxTokens;
    if (excess <= 0) return summary;
    // Drop the pieces kept last (the least important) until the excess is covered.
    for (let dropped = 0; dropped < excess && kept.length > 0; ) dropped += kept.pop()?.cost ?? 0;
  }
  return tokenizer.truncate(text, maxTokens);
};
