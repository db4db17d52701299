import type { UntrustedFinding } from "@task-context/core";
import { requireObject } from "@task-context/core/internal";
import { InvalidSubagentContextError } from "../errors/invalid-subagent-context-error.ts";
import {
  type ContextItem,
  type SubagentContext,
  subagentContextSchema,
} from "../schemas/subagent-context.ts";
import { checkValue } from "../validate/issues.ts";
import { type FencedContextItem, fenceContextItem } from "./earlier-work.ts";
import { escapeXmlAttribute, escapeXmlText, sanitizeXmlText } from "./xml-text.ts";

/** The XML declaration every rendered document starts with. */
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

type OutputField = SubagentContext["output-format"]["required-fields"][number];

/** Throws {@link InvalidSubagentContextError} unless `value` is a subagent-context document. */
function validate(value: unknown): SubagentContext {
  const checked = checkValue(subagentContextSchema, value);
  if (!checked.valid) throw new InvalidSubagentContextError({ issues: checked.issues });
  return checked.data;
}

const sanitizeOptional = (text: string | undefined) =>
  text === undefined ? undefined : sanitizeXmlText(text);

const sanitizeField = (field: OutputField): OutputField => ({
  name: sanitizeXmlText(field.name),
  description: sanitizeXmlText(field.description),
});

/**
 * A context item with every string sanitized (see {@link sanitizeXmlText}), then, when it is
 * earlier work, marked and neutralised (see {@link fenceContextItem}).
 */
function sanitizeContextItem(item: ContextItem, index: number): FencedContextItem {
  const path = sanitizeOptional(item.path);
  const source = sanitizeOptional(item.source);
  return fenceContextItem(
    {
      type: sanitizeXmlText(item.type),
      content: sanitizeXmlText(item.content),
      ...(path === undefined ? {} : { path }),
      ...(source === undefined ? {} : { source }),
      ...(item.untrusted === undefined ? {} : { untrusted: item.untrusted }),
    },
    index,
  );
}

/**
 * The document that rendering and parsing back yields: every string passed through
 * {@link sanitizeXmlText} (forbidden characters dropped, line ends as LF), and every context
 * item that is earlier work marked `untrusted: true` and neutralised. Does not validate.
 */
export function sanitizeSubagentContext(doc: SubagentContext): SubagentContext {
  return sanitizeSubagentContextWithFindings(doc).doc;
}

/**
 * {@link sanitizeSubagentContext}, with what was neutralised in its earlier work, in item order.
 * Does not validate.
 */
export function sanitizeSubagentContextWithFindings(doc: SubagentContext): {
  doc: SubagentContext;
  findings: UntrustedFinding[];
} {
  const context = doc.context.map(sanitizeContextItem);
  return {
    doc: sanitizeDocument(
      doc,
      context.map((fenced) => fenced.item),
    ),
    findings: context.flatMap((fenced) => fenced.findings),
  };
}

function sanitizeDocument(doc: SubagentContext, context: ContextItem[]): SubagentContext {
  const storyRef = sanitizeOptional(doc.task["story-ref"]);
  return {
    version: doc.version,
    task: {
      id: sanitizeXmlText(doc.task.id),
      type: doc.task.type,
      description: sanitizeXmlText(doc.task.description),
      ...(storyRef === undefined ? {} : { "story-ref": storyRef }),
    },
    instructions: doc.instructions.map(sanitizeXmlText),
    scope: {
      "files-to-modify": doc.scope["files-to-modify"].map(sanitizeXmlText),
      "files-to-read": doc.scope["files-to-read"].map(sanitizeXmlText),
      "files-forbidden": doc.scope["files-forbidden"].map(sanitizeXmlText),
    },
    context,
    "output-format": {
      "required-fields": doc["output-format"]["required-fields"].map(sanitizeField),
      "optional-fields": doc["output-format"]["optional-fields"].map(sanitizeField),
    },
  };
}

const element = (indent: string, name: string, text: string) =>
  `${indent}<${name}>${escapeXmlText(text)}</${name}>`;

/** A container element: its children one per line, or a self-closing tag when it has none. */
function container(indent: string, name: string, children: string[]): string[] {
  if (children.length === 0) return [`${indent}<${name}/>`];
  return [`${indent}<${name}>`, ...children, `${indent}</${name}>`];
}

/**
 * The `<item>` line of one sanitized context item, with its four-space indentation: earlier work
 * says so in `untrusted="true"` and names its `source`.
 */
function renderContextItem(item: ContextItem): string {
  const untrusted = item.untrusted === true ? ' untrusted="true"' : "";
  const source = item.source === undefined ? "" : ` source="${escapeXmlAttribute(item.source)}"`;
  const path = item.path === undefined ? "" : ` path="${escapeXmlAttribute(item.path)}"`;
  return `    <item type="${escapeXmlAttribute(item.type)}"${untrusted}${source}${path}>${escapeXmlText(item.content)}</item>`;
}

const renderField = (field: OutputField) =>
  `      <field name="${escapeXmlAttribute(field.name)}">${escapeXmlText(field.description)}</field>`;

/**
 * Renders an already sanitized and validated document. Internal: {@link renderSubagentContext}
 * is the public entry point; `generateContext` calls this to render many variants cheaply.
 */
export function renderSanitizedSubagentContext(doc: SubagentContext): string {
  const { task, scope } = doc;
  const format = doc["output-format"];
  const lines = [
    XML_DECLARATION,
    `<subagent-context version="${doc.version}">`,
    "",
    "  <task>",
    element("    ", "id", task.id),
    element("    ", "type", task.type),
    element("    ", "description", task.description),
    ...(task["story-ref"] === undefined ? [] : [element("    ", "story-ref", task["story-ref"])]),
    "  </task>",
    "",
    ...container(
      "  ",
      "instructions",
      doc.instructions.map((instruction) => element("    ", "instruction", instruction)),
    ),
    "",
    "  <scope>",
    ...container(
      "    ",
      "files-to-modify",
      scope["files-to-modify"].map((file) => element("      ", "file", file)),
    ),
    ...container(
      "    ",
      "files-to-read",
      scope["files-to-read"].map((file) => element("      ", "file", file)),
    ),
    ...container(
      "    ",
      "files-forbidden",
      scope["files-forbidden"].map((pattern) => element("      ", "pattern", pattern)),
    ),
    "  </scope>",
    "",
    ...container("  ", "context", doc.context.map(renderContextItem)),
    "",
    "  <output-format>",
    ...container("    ", "required-fields", format["required-fields"].map(renderField)),
    ...container("    ", "optional-fields", format["optional-fields"].map(renderField)),
    "  </output-format>",
    "",
    "</subagent-context>",
    "",
  ];
  return lines.join("\n");
}

/**
 * Renders a Sage `<subagent-context version="1.0">` document as XML: the XML declaration, then
 * task, instructions, scope, context and output-format in Sage's order, indented by two spaces per
 * level, ending with a newline. Every string is sanitized first (characters XML 1.0 forbids are
 * dropped, line ends become LF) and escaped; CDATA is never used, so any content yields
 * well-formed XML. Empty lists render as self-closing elements. Context items that are earlier
 * work — `prior-output` items, and any item with `untrusted: true` — render with
 * `untrusted="true"` (and their `source`), their content neutralised by core's
 * `neutralisePosingText`. See
 * https://github.com/task-context/task-context/blob/main/docs/sage-context.md.
 *
 * @throws {InvalidSubagentContextError} (with `issues`) when `doc` does not match
 *   `subagentContextSchema`, before or after sanitizing.
 * @throws {ArgumentError} when `doc` is not an object.
 *
 * @example
 * ```ts source="../../examples/render-subagent-context.ts"
 * import { renderSubagentContext } from "@task-context/protocols/sage";
 *
 * const xml = renderSubagentContext({
 *   version: "1.0",
 *   task: { id: "T-1", type: "implement", description: "Add the <ExportButton> & its test" },
 *   instructions: ["Follow TDD: write failing test first"],
 *   scope: { "files-to-modify": ["src/export.ts"], "files-to-read": [], "files-forbidden": [] },
 *   context: [{ type: "story-excerpt", content: "Users export notes as Markdown." }],
 *   "output-format": { "required-fields": [], "optional-fields": [] },
 * });
 * console.log(xml);
 * // <?xml version="1.0" encoding="UTF-8"?>
 * // <subagent-context version="1.0">
 * //
 * //   <task>
 * //     <id>T-1</id>
 * //     <type>implement</type>
 * //     <description>Add the &lt;ExportButton&gt; &amp; its test</description>
 * //   </task>
 * //
 * //   <instructions>
 * //     <instruction>Follow TDD: write failing test first</instruction>
 * //   </instructions>
 * //
 * //   <scope>
 * //     <files-to-modify>
 * //       <file>src/export.ts</file>
 * //     </files-to-modify>
 * //     <files-to-read/>
 * //     <files-forbidden/>
 * //   </scope>
 * //
 * //   <context>
 * //     <item type="story-excerpt">Users export notes as Markdown.</item>
 * //   </context>
 * //
 * //   <output-format>
 * //     <required-fields/>
 * //     <optional-fields/>
 * //   </output-format>
 * //
 * // </subagent-context>
 * ```
 */
export function renderSubagentContext(doc: SubagentContext): string {
  requireObject("doc", doc);
  const sanitized = validate(sanitizeSubagentContext(validate(doc)));
  return renderSanitizedSubagentContext(sanitized);
}
