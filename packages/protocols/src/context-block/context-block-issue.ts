import type { z } from "zod";
import { contextBlockSchema } from "../schemas/context-block.ts";
import { toJsonPointer } from "./json-pointer.ts";

/** One problem found in a context block (or in a fallback file), readable by people and models. */
export interface ContextBlockIssue {
  /** JSON Pointer of the field: `""` for the whole block, `/project/path`, `/project/commands/test`. */
  path: string;
  /** What is wrong and what to do. */
  message: string;
  /** 1-based line in the prompt (or in `file`), when known. */
  line?: number;
  /** The workspace file the issue is about, for fallback files (`docs/project.json`). */
  file?: string;
}

type Path = readonly (string | number)[];

/** The fields each mapping of a v1 block allows, in the spec's order. */
const ALLOWED_FIELDS: Record<string, readonly string[]> = {
  "": Object.keys(contextBlockSchema.shape),
  "/project": Object.keys(contextBlockSchema.shape.project.shape),
  "/conventions": Object.keys(contextBlockSchema.shape.conventions.shape),
  "/currentWork": Object.keys(contextBlockSchema.shape.currentWork.unwrap().shape),
};

/** What each required field holds, quoted in "is required" messages. */
const FIELD_HINTS: Record<string, string> = {
  "/project": "a mapping with path (the absolute project root), stack and, optionally, commands",
  "/project/path": "the absolute path of the project root, e.g. /Users/dev/code/my-app",
  "/project/stack": "the stack identifier from project.json, e.g. nextjs-prisma",
  "/conventions": "a mapping with summary (2-5 sentences) and, optionally, fullPath",
  "/conventions/summary": "a 2-5 sentence summary of the key conventions (50-100 tokens)",
};

/** `project.commands.test`, or `project.commands["my command"]` for keys that are not names. */
export function fieldLabel(path: Path): string {
  let label = "";
  for (const segment of path) {
    const name = String(segment);
    if (typeof segment === "number") label += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(name)) label += label === "" ? name : `.${name}`;
    else label += `[${JSON.stringify(name)}]`;
  }
  return label === "" ? "the block" : label;
}

/** A short description of a YAML value for messages: `the number 1`, `a list`, `nothing`. */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return "nothing";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    return `the text ${JSON.stringify(shown)}`;
  }
  if (typeof value === "number" || typeof value === "boolean")
    return `the ${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return typeof value;
}

function valueAt(root: unknown, path: Path): unknown {
  let value = root;
  for (const segment of path) {
    if (typeof value !== "object" || value === null) return undefined;
    if (!Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

function expectedName(expected: string): string {
  if (expected === "string") return "text";
  if (expected === "object" || expected === "record") return "a mapping";
  if (expected === "array") return "a list";
  return `a ${expected}`;
}

function closestField(name: string, allowed: readonly string[]): string | undefined {
  const folded = name.toLowerCase().replace(/[-_\s]/g, "");
  return allowed.find((field) => field.toLowerCase() === folded);
}

/**
 * Turns zod issues for a context block into readable {@link ContextBlockIssue}s: one per problem,
 * with a JSON Pointer, a message that says what to write instead, and the YAML line when
 * `lineOf` knows it.
 */
export function describeSchemaIssues(
  value: unknown,
  issues: readonly z.core.$ZodIssue[],
  lineOf: (path: Path) => number | undefined = () => undefined,
): ContextBlockIssue[] {
  const described: ContextBlockIssue[] = [];
  const add = (path: Path, message: string) => {
    const line = lineOf(path);
    described.push(
      line === undefined
        ? { path: toJsonPointer(path), message }
        : { path: toJsonPointer(path), message, line },
    );
  };
  for (const issue of issues) {
    const path = issue.path.map((segment) =>
      typeof segment === "symbol" ? String(segment) : segment,
    );
    const pointer = toJsonPointer(path);
    const label = fieldLabel(path);
    const actual = valueAt(value, path);
    switch (issue.code) {
      case "unrecognized_keys": {
        const allowed = ALLOWED_FIELDS[pointer] ?? [];
        for (const key of issue.keys) {
          const suggestion = closestField(key, allowed);
          const where = path.length === 0 ? "at the top level" : `in ${label}`;
          add(
            [...path, key],
            `Unknown field ${JSON.stringify(key)} ${where}.${suggestion === undefined ? "" : ` Did you mean ${JSON.stringify(suggestion)}?`} Context Protocol v1 allows: ${allowed.join(", ")}.`,
          );
        }
        break;
      }
      case "invalid_type":
        if (actual === undefined || (actual === null && issue.expected !== "null")) {
          const hint = FIELD_HINTS[pointer];
          add(path, `${label} is required${hint === undefined ? "" : `: ${hint}`}.`);
        } else {
          const quoteHint =
            issue.expected === "string" &&
            (typeof actual === "number" || typeof actual === "boolean")
              ? ` Quote it to make it text: "${String(actual)}".`
              : "";
          add(
            path,
            `${label} must be ${expectedName(issue.expected)}, not ${describeValue(actual)}.${quoteHint}`,
          );
        }
        break;
      case "too_small":
        add(path, `${label} must not be empty.`);
        break;
      case "invalid_format":
        add(
          path,
          `${label} must be an absolute path (such as /Users/dev/code/my-app or C:\\code\\my-app), not ${describeValue(actual)}.`,
        );
        break;
      default:
        add(path, `${label}: ${issue.message}.`);
    }
  }
  return described;
}

/**
 * Keys that would change an object's prototype when copied with `Object.assign` or a plain
 * assignment. The schema's record would silently drop them, so they are reported instead.
 */
export function reservedKeyIssues(
  value: unknown,
  lineOf: (path: Path) => number | undefined = () => undefined,
): ContextBlockIssue[] {
  const path = ["project", "commands", "__proto__"];
  const commands = valueAt(value, path.slice(0, 2));
  if (typeof commands !== "object" || commands === null || !Object.hasOwn(commands, "__proto__")) {
    return [];
  }
  const message =
    'project.commands may not have a command named "__proto__" (it would replace the prototype of objects it is copied into). Rename the command.';
  const line = lineOf(path);
  return [
    line === undefined
      ? { path: toJsonPointer(path), message }
      : { path: toJsonPointer(path), message, line },
  ];
}
