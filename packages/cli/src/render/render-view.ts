import { CONTEXT_VIEW_PRESETS, type ContextView, type TaskContext } from "@task-context/core";
import { type Command, Option } from "commander";
import { usageError } from "../cli-error.ts";
import { positiveInteger } from "../commands/lint.ts";

/** The names `render --view` accepts: core's presets. */
export const VIEW_PRESET_NAMES = Object.keys(CONTEXT_VIEW_PRESETS) as Array<
  keyof typeof CONTEXT_VIEW_PRESETS
>;

/** The view options of `render`. */
export interface ViewOptions {
  view?: keyof typeof CONTEXT_VIEW_PRESETS;
  include?: string[];
  exclude?: string[];
  viewMaxChars?: number;
}

/** Collects a repeatable option's values: `--include A --include B`. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * Adds the view options to `command` — `--view <preset>`, the repeatable `--include` and
 * `--exclude <heading>`, `--view-max-chars <n>` — parsed into {@link ViewOptions} for
 * {@link viewOfOptions}: the same flags on `render` and `mcp`.
 */
export function addViewOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--view <preset>",
        "deliver only a preset's sections of CONTEXT.md (media: building, terms, brand; brief: building, terms)",
      ).choices(VIEW_PRESET_NAMES),
    )
    .option(
      "--include <heading>",
      "a view of the sections under <heading> (repeat it for more)",
      collect,
    )
    .option(
      "--exclude <heading>",
      "a view without the sections under <heading> (repeatable)",
      collect,
    )
    .option(
      "--view-max-chars <n>",
      "the view's own limit (--max-chars still applies)",
      positiveInteger,
    );
}

/**
 * The view `render` shows the recipient: a preset (`--view media`), or a custom view named
 * "custom" from `--include` and `--exclude`, each with `--view-max-chars`; undefined without any.
 */
export function viewOfOptions(options: ViewOptions): ContextView | undefined {
  const custom = options.include !== undefined || options.exclude !== undefined;
  if (options.view !== undefined && custom) {
    throw usageError(
      "--view takes a preset; --include and --exclude make a view of their own",
      "use either --view <preset> or --include/--exclude",
    );
  }
  let view: ContextView | undefined;
  if (options.view !== undefined) view = { ...CONTEXT_VIEW_PRESETS[options.view] };
  else if (custom) {
    view = { name: "custom" };
    if (options.include !== undefined) view.include = options.include;
    if (options.exclude !== undefined) view.exclude = options.exclude;
  }
  if (options.viewMaxChars !== undefined) {
    if (view === undefined) {
      throw usageError(
        "--view-max-chars bounds a view, and none was given",
        "add --view <preset> or --include/--exclude, or use --max-chars for the whole file",
      );
    }
    view.maxChars = options.viewMaxChars;
  }
  return view;
}

/**
 * The report's lines on the view a context delivered — its sections, the whole file's hash and,
 * when not already shown with the truncation, the loader's warning (a heading the file lacks);
 * none without a view.
 */
export function viewNotes(context: TaskContext, warn: (text: string) => string): string[] {
  if (context.view === undefined) return [];
  const { name, sections, fileSha256 } = context.view;
  const notes = [
    `-- view "${name}": ${sections.length === 0 ? "(text before the first heading)" : sections.join(", ")}; the whole CONTEXT.md has sha256 ${fileSha256}`,
  ];
  if (!context.truncated && context.warning !== undefined)
    notes.push(`-- ${warn("warning")}: ${context.warning}`);
  return notes;
}
