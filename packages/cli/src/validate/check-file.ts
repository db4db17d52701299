import { basename } from "node:path";
import { type SchemaName, schemaNames, validate } from "@task-context/protocols";
import { parseContextBlock } from "@task-context/protocols/context-block";
import { InvalidSubagentContextError, parseSubagentContext } from "@task-context/protocols/sage";
import { detectJsonSchema } from "./detect-json-schema.ts";
import { type LocatedSource, parseJsonSource } from "./json-source.ts";
import { positionFinder, type SourcePosition } from "./source-position.ts";
import { parseYamlSource } from "./yaml-source.ts";

/** One problem, where it is written. */
export interface LocatedIssue extends SourcePosition {
  /** JSON Pointer of the field (`""` for the whole document). */
  path: string;
  message: string;
}

/** One file's verdict. */
export interface FileVerdict {
  file: string;
  /** The schema checked against; null when none could be chosen. */
  schema: SchemaName | null;
  valid: boolean;
  issues: LocatedIssue[];
  /** Something the recipient will handle, but should know (e.g. a long summary). */
  warning?: string;
  /** The format the file could not be parsed as; its first syntax error is the issue. */
  unparsable?: "JSON" | "YAML";
}

/** The schema names `--schema` accepts, without their `.v1`. */
export const SCHEMA_CHOICES = schemaNames.map((name) => name.replace(/\.v1$/, ""));

const CONTEXT_LINE = /^[ \t]*<context>[ \t]*\r?$/m;

/** Resolves a `--schema` value: `work-item` or `work-item.v1`; undefined when unknown. */
export function schemaFromOption(value: string): SchemaName | undefined {
  const name = (value.endsWith(".v1") ? value : `${value}.v1`) as SchemaName;
  return schemaNames.includes(name) ? name : undefined;
}

/** What a file's name and first characters say it is. */
function detect(
  name: string,
  text: string,
): { kind: "xml" } | { kind: "prompt" } | { kind: "json" } | { kind: "yaml" } {
  const start = text.trimStart();
  if (/\.xml$/i.test(name) || start.startsWith("<?xml") || start.startsWith("<subagent-context")) {
    return { kind: "xml" };
  }
  if (CONTEXT_LINE.test(text)) return { kind: "prompt" };
  if (/\.json$/i.test(name) || start.startsWith("{") || start.startsWith("[")) {
    return { kind: "json" };
  }
  return { kind: "yaml" };
}

/** The keys a YAML mapping has, or undefined when it is not one. */
function keysOf(value: unknown): string[] | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.keys(value)
    : undefined;
}

const CONTEXT_BLOCK_KEYS = ["version", "project", "conventions", "currentWork"];
const LIMITS_KEYS = ["defaults", "overrides"];

/** Why detection failed, for the caller to word. */
export class UndetectedSchemaError extends Error {}

/** Checks one file's text; `schema` forces the schema, else it is detected. */
export function checkText(name: string, text: string, schema?: SchemaName): FileVerdict {
  const { kind } = detect(name, text);
  if (schema === "subagent-context.v1" || (schema === undefined && kind === "xml")) {
    return checkSageXml(name, text);
  }
  if (schema === "context-block.v1" || (schema === undefined && kind === "prompt")) {
    return checkContextBlock(name, text, kind === "prompt");
  }
  const source = kind === "json" ? parseJsonSource(text) : parseYamlSource(text);
  if (source.syntaxErrors.length > 0) {
    return {
      file: name,
      schema: schema ?? null,
      valid: false,
      // The first syntax error: the ones after it are mostly its consequences.
      issues: source.syntaxErrors.slice(0, 1).map((error) => ({ path: "", ...error })),
      unparsable: kind === "json" ? "JSON" : "YAML",
    };
  }
  let chosen: SchemaName | undefined = schema;
  if (chosen === undefined) {
    const keys = keysOf(source.value) ?? [];
    if (kind === "yaml" && /^context-limits\.ya?ml$/i.test(basename(name))) {
      chosen = "context-limits.v1";
    } else if (
      kind === "yaml" &&
      keys.length > 0 &&
      keys.every((key) => LIMITS_KEYS.includes(key))
    ) {
      chosen = "context-limits.v1";
    } else if (
      kind === "yaml" &&
      keys.length > 0 &&
      keys.every((key) => CONTEXT_BLOCK_KEYS.includes(key))
    ) {
      return checkContextBlock(name, text, false);
    } else {
      const detected = detectJsonSchema(source.value);
      if (detected.kind !== "one") throw new UndetectedSchemaError(detected.reason);
      chosen = detected.schema;
    }
  }
  return checkValue(name, source, chosen);
}

function checkValue(name: string, source: LocatedSource, schema: SchemaName): FileVerdict {
  const result = validate(schema, source.value);
  return {
    file: name,
    schema,
    valid: result.valid,
    issues: result.issues.map((issue) => ({ ...issue, ...source.locate(issue.path) })),
  };
}

/**
 * A prompt that starts with a `<context>` block, or bare YAML (checked as if it were wrapped in
 * one): protocols' own `parseContextBlock`, the receiver's verdict, with each issue placed.
 */
function checkContextBlock(name: string, text: string, isPrompt: boolean): FileVerdict {
  const prompt = isPrompt ? text : `<context>\n${text.replace(/\n?$/, "\n")}</context>\n`;
  const shift = isPrompt ? 0 : 1;
  const parsed = parseContextBlock(prompt);
  const verdict: FileVerdict = { file: name, schema: "context-block.v1", valid: true, issues: [] };
  if ("warning" in parsed && parsed.warning !== undefined) verdict.warning = parsed.warning;
  if (parsed.status === "found") return verdict;
  verdict.valid = false;
  if (parsed.status === "missing") {
    const at = CONTEXT_LINE.exec(text);
    const position = at === null ? { line: 1, column: 1 } : positionFinder(text)(at.index);
    verdict.issues.push({
      path: "",
      message:
        "The <context> block must come first in the prompt (only whitespace or a code fence may precede it): receivers ignore a block anywhere else.",
      ...position,
    });
    return verdict;
  }
  // The YAML body: the lines after the <context> line, to place each issue on its column.
  const open = CONTEXT_LINE.exec(prompt);
  const bodyStart = open === null ? 0 : prompt.indexOf("\n", open.index) + 1;
  const bodyEnd = prompt.search(/^[ \t]*<\/context>[ \t]*\r?$/m);
  const firstLine = positionFinder(prompt)(bodyStart).line;
  const body = parseYamlSource(
    prompt.slice(bodyStart, bodyEnd < bodyStart ? undefined : bodyEnd),
    firstLine,
  );
  for (const issue of parsed.issues) {
    const located =
      issue.path === "" && issue.line !== undefined
        ? { line: issue.line, column: 1 }
        : body.locate(issue.path);
    verdict.issues.push({
      path: issue.path,
      message: issue.message,
      line: Math.max(1, located.line - shift),
      column: located.column,
    });
  }
  return verdict;
}

/** Sage XML: protocols' parser; schema issues are placed at the element they name. */
function checkSageXml(name: string, text: string): FileVerdict {
  try {
    parseSubagentContext(text);
    return { file: name, schema: "subagent-context.v1", valid: true, issues: [] };
  } catch (error) {
    if (!InvalidSubagentContextError.isInstance(error)) throw error;
    const at = positionFinder(text);
    return {
      file: name,
      schema: "subagent-context.v1",
      valid: false,
      issues: error.issues.map((issue) => ({
        path: issue.path,
        message: issue.message,
        ...(issue.line === undefined
          ? at(elementOffset(text, issue.path))
          : { line: issue.line, column: issue.column ?? 1 }),
      })),
    };
  }
}

/** Where the element (or attribute) a pointer names starts: `/task/id` → `<id` after `<task`. */
function elementOffset(text: string, pointer: string): number {
  let offset = Math.max(0, text.indexOf("<subagent-context"));
  for (const segment of pointer.split("/").slice(1)) {
    if (/^\d+$/.test(segment)) continue;
    const element = text.indexOf(`<${segment}`, offset);
    const attribute = element === -1 ? text.indexOf(`${segment}=`, offset) : -1;
    const found = element === -1 ? attribute : element;
    if (found === -1) break;
    offset = found;
  }
  return offset;
}
