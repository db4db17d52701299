import { ArgumentError, CONTEXT_VIEW_PRESETS, type ContextView } from "@task-context/core";
import * as z from "zod";

/** A heading a view names: a short non-empty string. */
const heading = z
  .string()
  .min(1, "a heading must not be empty")
  .max(1_000, "a heading must have at most 1000 characters");

/** The `view` argument of `get_task_context` and `inject_task_context`, as the wire spells it. */
export const viewArgumentSchema = z
  .object({
    name: z
      .optional(z.string().min(1).max(200))
      .describe(
        `A preset (${Object.keys(CONTEXT_VIEW_PRESETS).join(", ")}) when alone; else the name of the view given by include and exclude`,
      ),
    include: z
      .optional(z.array(heading).min(1).max(100))
      .describe("Headings of CONTEXT.md whose sections (with their sub-sections) to deliver"),
    exclude: z
      .optional(z.array(heading).max(100))
      .describe("Headings of CONTEXT.md whose sections to leave out"),
    max_chars: z
      .optional(z.number().int().min(1))
      .describe("Most characters of the view (the server's own limit still applies)"),
  })
  .describe(
    "Deliver only some sections of CONTEXT.md: a preset by name, or include/exclude by heading. Omit it for the whole file.",
  );

/** The `view` argument, as checked. */
export type ViewArgument = z.output<typeof viewArgumentSchema>;

/** The name of a view given without one. */
const UNNAMED = "custom";

/**
 * The view an argument asks for: a preset of core's `CONTEXT_VIEW_PRESETS` when it has only a
 * name, else `{ name, include, exclude, maxChars }` (named "custom" when it has no name). Throws
 * `ArgumentError` for a name alone that is no preset.
 */
export function viewOfArgument(argument: ViewArgument): ContextView {
  const { name, include, exclude, max_chars } = argument;
  if (include === undefined && exclude === undefined) {
    const preset =
      name !== undefined && Object.hasOwn(CONTEXT_VIEW_PRESETS, name)
        ? CONTEXT_VIEW_PRESETS[name as keyof typeof CONTEXT_VIEW_PRESETS]
        : undefined;
    if (preset === undefined) {
      throw new ArgumentError({
        argument: "view",
        message: `${name === undefined ? "a view without a name" : `${JSON.stringify(name)} is no preset, and a view`} needs include or exclude. Name a preset (${Object.keys(CONTEXT_VIEW_PRESETS).join(", ")}) or give the headings to include or exclude.`,
      });
    }
    return max_chars === undefined ? preset : { ...preset, maxChars: max_chars };
  }
  const view: ContextView = { name: name ?? UNNAMED };
  if (include !== undefined) view.include = include;
  if (exclude !== undefined) view.exclude = exclude;
  if (max_chars !== undefined) view.maxChars = max_chars;
  return view;
}

/** The view a tool's result delivered, in its structured content: present only with a view. */
export const viewOutputSchema = z
  .object({
    name: z.string().describe("The view's name"),
    sections: z.array(z.string()).describe("The headings delivered, in file order"),
    fileSha256: z
      .string()
      .describe(
        "Hex SHA-256 of the whole CONTEXT.md as delivered without the view; sha256 is the view's",
      ),
  })
  .describe("The view of CONTEXT.md that was delivered");
