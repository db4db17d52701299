import { describeArgument, requireObject, requireText, requireWholeNumber } from "../arguments.ts";
import { ArgumentError } from "../errors/argument-error.ts";

/**
 * Which sections of CONTEXT.md one recipient receives, and its own budget. An image model needs
 * what we are building, the key terms and the brand rules, not the test commands: a view sends it
 * those sections only. Without a view a recipient gets the whole file, as before.
 *
 * @example
 * ```ts source="../../examples/views.ts#contextView"
 * const imageModel: ContextView = {
 *   name: "image-model",
 *   include: ["What we are building", "Key terminology", "Visual and brand guidelines"],
 *   maxChars: 4_000,
 * };
 * ```
 */
export interface ContextView {
  /** Names the view in warnings, receipts and spans, e.g. "image-model". Non-empty. */
  name: string;
  /**
   * Headings whose sections are delivered (matched trimmed and case-insensitively, without the
   * #s; a section runs to the next heading of the same or a higher level, sub-sections included).
   * Omitted: every section, and the text before the first heading.
   */
  include?: readonly string[] | undefined;
  /** Headings whose sections are left out (after include), with their sub-sections. */
  exclude?: readonly string[] | undefined;
  /** Most UTF-16 units of this view's text (the load's maxChars still applies: the smaller wins). */
  maxChars?: number | undefined;
  /** Most tokens of this view's text (needs the load's tokenizer; the smaller budget wins). */
  maxTokens?: number | undefined;
}

/** Throws unless `value` is an array of non-empty heading strings. */
function requireHeadings(argument: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    throw new ArgumentError({
      argument,
      message: `expected an array of headings (strings), got ${describeArgument(value)}.`,
    });
  }
  return value.map((heading: unknown, index) => {
    const text = requireText(`${argument}[${index}]`, heading, "a heading, a non-empty string");
    if (text.trim() === "") {
      throw new ArgumentError({
        argument: `${argument}[${index}]`,
        message: "expected a heading, got only whitespace.",
      });
    }
    return text;
  });
}

/**
 * Checks a {@link ContextView} wherever one is accepted and returns a copy of its fields; throws
 * `ArgumentError` naming the field (`view.include[1]`) for an empty name, a heading that is not a
 * non-empty string, a budget that is not a whole number ≥ 1, or an empty `include` (which could
 * select nothing).
 */
export function requireContextView(argument: string, value: unknown): ContextView {
  const fields = requireObject(
    argument,
    value,
    "a view: { name, include?, exclude?, maxChars?, maxTokens? }",
  );
  const name = requireText(`${argument}.name`, fields.name, "the view's name, a non-empty string");
  if (name.trim() === "") {
    throw new ArgumentError({
      argument: `${argument}.name`,
      message: "expected the view's name, got only whitespace.",
    });
  }
  const include = requireHeadings(`${argument}.include`, fields.include);
  if (include !== undefined && include.length === 0) {
    throw new ArgumentError({
      argument: `${argument}.include`,
      message:
        "expected at least one heading: an empty include selects nothing. Leave include out to deliver every section.",
    });
  }
  const exclude = requireHeadings(`${argument}.exclude`, fields.exclude);
  const view: ContextView = { name };
  if (include !== undefined) view.include = include;
  if (exclude !== undefined) view.exclude = exclude;
  if (fields.maxChars !== undefined)
    view.maxChars = requireWholeNumber(`${argument}.maxChars`, fields.maxChars, 1);
  if (fields.maxTokens !== undefined)
    view.maxTokens = requireWholeNumber(`${argument}.maxTokens`, fields.maxTokens, 1);
  return view;
}
