import type { ContextHeading } from "../views/context-headings.ts";
import type { ContextView } from "../views/context-view.ts";
import { fileHeadingsSentence, listHeadings } from "../views/view-messages.ts";
import { TaskContextError } from "./task-context-error.ts";

const marker = "task-context.error.ContextViewEmptyError";
const symbol = Symbol.for(marker);

/** What a view asked for, in words: "includes "A", "B" and excludes "C"". */
function asked(view: Pick<ContextView, "include" | "exclude">): string {
  const include =
    view.include === undefined
      ? "includes every section"
      : `includes ${listHeadings(view.include)}`;
  const exclude =
    view.exclude === undefined || view.exclude.length === 0
      ? "excludes nothing"
      : `excludes ${listHeadings(view.exclude)}`;
  return `${include} and ${exclude}`;
}

/**
 * A view of CONTEXT.md selects nothing: none of the headings it includes is in the file, or it
 * excludes everything it includes. Nothing was delivered — an empty context is never sent
 * silently. The message names the view, the headings it asked for and the headings the file has.
 */
export class ContextViewEmptyError extends TaskContextError<"CONTEXT_VIEW_EMPTY"> {
  protected readonly [symbol] = true;
  override name = "ContextViewEmptyError";
  /** The view's name. */
  readonly view: string;
  /** The headings CONTEXT.md has, in file order. */
  readonly headings: string[];

  constructor({
    view,
    headings,
  }: {
    view: Pick<ContextView, "name" | "include" | "exclude">;
    headings: readonly Pick<ContextHeading, "text">[];
  }) {
    super({
      code: "CONTEXT_VIEW_EMPTY",
      message: `View ${JSON.stringify(view.name)} selects nothing of CONTEXT.md: it ${asked(view)}. ${fileHeadingsSentence(headings)} Name headings CONTEXT.md has, or write those sections into it.`,
    });
    this.view = view.name;
    this.headings = headings.map((heading) => heading.text);
  }

  static override isInstance(error: unknown): error is ContextViewEmptyError {
    return TaskContextError.hasMarker(error, marker);
  }
}
