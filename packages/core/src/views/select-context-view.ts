import { requireString } from "../arguments.ts";
import { type LocatedHeading, locateHeadings } from "./context-headings.ts";
import { type ContextView, requireContextView } from "./context-view.ts";

/** What {@link selectContextView} selected of a Markdown text for one view. */
export interface ContextViewSelection {
  /** The selected sections, as written, trimmed of surrounding whitespace; "" when nothing was selected. */
  content: string;
  /** The headings delivered, in file order: the selected sections' and their sub-sections'. */
  sections: string[];
  /** The headings the view names (in `include`, then `exclude`) that the text does not have. */
  unknownHeadings: string[];
}

/** The parts of a text a view selects, as UTF-16 ranges `[start, end)` in text order. */
export interface ViewRanges {
  ranges: Array<{ start: number; end: number }>;
  sections: string[];
  unknownHeadings: string[];
  headings: LocatedHeading[];
}

/** Whitespace other than single spaces: what {@link headingKey} has to collapse. */
const UNUSUAL_WHITESPACE = /\s\s|[^\S ]/;

/** How a heading is compared with a view's: trimmed, inner whitespace as one space, lower case. */
export function headingKey(heading: string): string {
  const trimmed = heading.trim();
  const spaced = UNUSUAL_WHITESPACE.test(trimmed) ? trimmed.replace(/\s+/g, " ") : trimmed;
  return spaced.toLowerCase();
}

/** A section open at some point of the text: its level, and whether the view keeps it. */
interface OpenSection {
  level: number;
  included: boolean;
  excluded: boolean;
}

/**
 * The ranges of `markdown` that `view` (already checked) selects: every section whose heading, or
 * an enclosing section's heading, is in `include` (everything when there is no `include`), less
 * the sections in `exclude` and theirs. The text before the first heading belongs to no section:
 * it is selected only when the view has no `include`. Linear in the text's length.
 */
export function selectViewRanges(markdown: string, view: ContextView): ViewRanges {
  const headings = locateHeadings(markdown);
  const included = view.include === undefined ? undefined : new Set(view.include.map(headingKey));
  const excluded = new Set((view.exclude ?? []).map(headingKey));
  const ranges: ViewRanges["ranges"] = [];
  const keep = (start: number, end: number) => {
    if (start === end) return;
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last.end === start) last.end = end;
    else ranges.push({ start, end });
  };
  if (included === undefined) keep(0, headings[0]?.start ?? markdown.length);

  const sections: string[] = [];
  const open: OpenSection[] = [];
  const present = new Set<string>();
  for (const [index, heading] of headings.entries()) {
    while ((open[open.length - 1]?.level ?? 0) >= heading.level) open.pop();
    const parent = open[open.length - 1];
    const key = headingKey(heading.text);
    present.add(key);
    const section: OpenSection = {
      level: heading.level,
      included: included === undefined || parent?.included === true || included.has(key),
      excluded: parent?.excluded === true || excluded.has(key),
    };
    open.push(section);
    if (section.included && !section.excluded) {
      keep(heading.start, headings[index + 1]?.start ?? markdown.length);
      sections.push(heading.text);
    }
  }

  const unknown = new Map<string, string>();
  for (const heading of [...(view.include ?? []), ...(view.exclude ?? [])]) {
    const key = headingKey(heading);
    if (!present.has(key) && !unknown.has(key)) unknown.set(key, heading.trim());
  }
  return { ranges, sections, unknownHeadings: [...unknown.values()], headings };
}

/**
 * Selects the sections of a Markdown text (CONTEXT.md) that a {@link ContextView} names, as
 * `loadTaskContext({ view })` does before it applies the budgets (which this function does not).
 * A section runs from its ATX heading to the next heading of the same or a higher level, its
 * sub-sections included; headings are matched trimmed, with runs of whitespace as one space and
 * without regard to case. `include` selects sections (omitted: all of them); `exclude` then leaves
 * sections out. The text before the first heading is selected only when there is no `include`.
 * Pure and linear in the text's length; throws `ArgumentError` for an invalid view.
 *
 * @example
 * ```ts source="../../examples/views.ts#selectContextView"
 * const selection = selectContextView(
 *   "# Task context\n\n## What we are building\nLumen, a notes app.\n\n## Other details\nRun pnpm test.",
 *   { name: "image-model", include: ["What we are building", "Brand rules"] },
 * );
 * // { content: "## What we are building\nLumen, a notes app.",
 * //   sections: ["What we are building"], unknownHeadings: ["Brand rules"] }
 * ```
 */
export function selectContextView(markdown: string, view: ContextView): ContextViewSelection {
  requireString("markdown", markdown);
  const checked = requireContextView("view", view);
  const { ranges, sections, unknownHeadings } = selectViewRanges(markdown, checked);
  const content = ranges
    .map(({ start, end }) => markdown.slice(start, end))
    .join("")
    .trim();
  return { content, sections, unknownHeadings };
}
