import { ArgumentError, type ContextView } from "@task-context/core";
import { describeArgument, requireContextView, requireObject } from "@task-context/core/internal";

/** The views given to `buildSystemPrompt`, checked, by recipient. */
export type RecipientViews = ReadonlyArray<readonly [recipient: string, view: ContextView]>;

/**
 * Checks `buildSystemPrompt`'s `views`: an object whose keys name recipients (a tool's name, "review
 * subagents", …) and whose values are views; throws `ArgumentError` naming the first bad one.
 */
export function requireRecipientViews(value: unknown): RecipientViews {
  if (value === undefined) return [];
  const record = requireObject("views", value, "an object of views by recipient");
  return Object.entries(record).map(([recipient, view]) => {
    if (recipient.trim() === "") {
      throw new ArgumentError({
        argument: "views",
        message: `expected recipients' names as keys, got ${describeArgument(recipient)}.`,
      });
    }
    return [recipient, requireContextView(`views.${recipient}`, view)] as const;
  });
}

const quoted = (headings: readonly string[]) =>
  headings.map((heading) => `"${heading}"`).join(", ");

/** What one recipient receives, in a sentence's words. */
function describeView(view: ContextView): string {
  const include =
    view.include === undefined ? "every section" : `the sections ${quoted(view.include)}`;
  const exclude =
    view.exclude === undefined || view.exclude.length === 0
      ? ""
      : `, without ${quoted(view.exclude)}`;
  const budget = view.maxChars === undefined ? "" : `, at most ${view.maxChars} characters`;
  return `${include}${exclude}${budget} (view "${view.name}")`;
}

/**
 * The part that tells the agent which recipients receive which sections of CONTEXT.md, and which
 * headings those are: write the sections under exactly these headings, or a recipient misses them.
 */
export function renderContextViewsSection(views: RecipientViews): string {
  const headings = [
    ...new Set(views.flatMap(([, view]) => [...(view.include ?? []), ...(view.exclude ?? [])])),
  ];
  return [
    "### What each recipient sees of CONTEXT.md",
    "",
    "Some recipients receive only some sections of CONTEXT.md — a section runs from its heading to the next heading of the same or a higher level:",
    ...views.map(([recipient, view]) => `- ${recipient}: ${describeView(view)}.`),
    "",
    headings.length === 0
      ? "Every other recipient receives the whole file."
      : `Write these sections under exactly these headings, or the recipients above miss them: ${quoted(headings)}. Every other recipient receives the whole file.`,
  ].join("\n");
}
