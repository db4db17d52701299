import type { ContextHeading } from "./context-headings.ts";
import type { ContextView } from "./context-view.ts";

/** Headings named in a message before the rest are counted. */
const MAX_LISTED = 20;

/** Headings as a message lists them: quoted, comma-separated, the rest counted. */
export function listHeadings(headings: readonly string[]): string {
  const listed = headings.slice(0, MAX_LISTED).map((heading) => JSON.stringify(heading));
  const more = headings.length - listed.length;
  return more > 0 ? `${listed.join(", ")} and ${more} more` : listed.join(", ");
}

/** "CONTEXT.md's headings are …", or that it has none. */
export function fileHeadingsSentence(headings: readonly Pick<ContextHeading, "text">[]): string {
  if (headings.length === 0)
    return "CONTEXT.md has no headings (lines that start with #s, such as `## Key terminology`).";
  return `CONTEXT.md's headings are ${listHeadings(headings.map((heading) => heading.text))}.`;
}

/** The warning for headings a view names that CONTEXT.md does not have. */
export function unknownHeadingsWarning(
  view: Pick<ContextView, "name">,
  unknown: readonly string[],
  headings: readonly Pick<ContextHeading, "text">[],
): string {
  const these = unknown.length === 1 ? "a heading" : "headings";
  return `View ${JSON.stringify(view.name)} names ${these} CONTEXT.md does not have: ${listHeadings(unknown)}. ${fileHeadingsSentence(headings)} Check the view's include and exclude.`;
}
