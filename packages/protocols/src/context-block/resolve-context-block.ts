import { FileNotFoundError, TaskContextError, type Workspace } from "@task-context/core";
import {
  lineNumberAt,
  requireObject,
  requireText,
  requireWholeNumber,
  requireWorkspace,
} from "@task-context/core/internal";
import * as z from "zod/mini";
import type { ContextBlock } from "../schemas/context-block.ts";
import { checkValue, prototypeKeyIssue, type ValidationIssue } from "../validate/issues.ts";
import {
  type ContextBlockIssue,
  type ContextBlockStatus,
  type ParseContextBlockOptions,
  parseContextBlock,
} from "./parse-context-block.ts";
import {
  CONVENTIONS_PATH,
  readNotes,
  readTextFile,
  type TextFile,
} from "./read-full-conventions.ts";

/**
 * Options for {@link resolveContextBlock}: the files to fall back to (`projectJsonPath`, default
 * `docs/project.json`; `conventionsPath`, default `docs/CONVENTIONS.md`) and the most bytes read
 * of each (`maxFileBytes`, default 65 536), besides {@link parseContextBlock}'s options.
 */
export interface ResolveContextBlockOptions extends ParseContextBlockOptions {
  projectJsonPath?: string;
  conventionsPath?: string;
  maxFileBytes?: number;
}

/**
 * The project facts a receiver works with: the block's `project.path` (the working directory;
 * undefined when the files were read), the `stack`, named `commands` (empty when none are known)
 * and the `name` from `docs/project.json`.
 */
export interface ResolvedProject {
  path: string | undefined;
  stack: string | undefined;
  commands: Record<string, string>;
  name: string | undefined;
}

/**
 * The conventions a receiver follows: the block's `conventions.summary` or the text of
 * `docs/CONVENTIONS.md`; the block's `fullPath`, for {@link readFullConventions}; and whether
 * the file was longer than the read limit (`text` is then its start).
 */
export interface ResolvedConventions {
  text: string | undefined;
  fullPath: string | undefined;
  truncated: boolean;
}

/** The context a subagent works with: what the prompt's block says, or what the files say. */
export interface ResolvedContext {
  /** `"block"`: from the prompt's `<context>` block, no file was read. `"files"`: the fallback. */
  source: "block" | "files";
  /** What {@link parseContextBlock} found at the start of the prompt. */
  status: ContextBlockStatus;
  /** The block, when `source` is `"block"`. */
  block: ContextBlock | undefined;
  project: ResolvedProject;
  conventions: ResolvedConventions;
  /** The block's `currentWork`; undefined when the files were read. */
  currentWork: ContextBlock["currentWork"];
  /**
   * The parsed `docs/project.json` object, for fields beyond stack, commands and name; without its
   * `__proto__` keys (each is reported in `issues`), so that copying it changes no prototype.
   */
  projectJson: Record<string, unknown> | undefined;
  /** The request: the prompt after the block (the whole prompt when there is no block). */
  request: string;
  /** Problems with the block (when it was not used) and with the fallback files' content. */
  issues: ContextBlockIssue[];
  /** Why the block was not used, missing or cut files, a long summary; absent when all is well. */
  warning?: string;
}

/**
 * Context Protocol v1's receiver rules in one call. When the prompt starts with a valid v1 block,
 * its values are used and no file is read. Otherwise (no block, an unsupported version, or an
 * invalid block) `docs/project.json` and `docs/CONVENTIONS.md` are read through the workspace,
 * each bounded to `maxFileBytes`: `stack`, `commands` and `name` come from the JSON, and the
 * Markdown's text becomes the conventions. Missing or unreadable files become the `warning`,
 * malformed content becomes `issues`; errors that are not the workspace's own propagate. See
 * https://github.com/task-context/task-context/blob/main/docs/context-protocol.md.
 *
 * @throws {ArgumentError} when `prompt`, `workspace` or an option has the wrong type.
 *
 * @example
 * ```ts source="../../examples/resolve-context-block.ts"
 * import { memoryWorkspace } from "@task-context/core";
 * import { resolveContextBlock } from "@task-context/protocols/context-block";
 *
 * const workspace = memoryWorkspace({
 *   "docs/project.json": '{"name": "notes", "stack": "hono", "commands": {"test": "npm test"}}',
 *   "docs/CONVENTIONS.md": "# Conventions\n\nESM only. Zod for validation.\n",
 * });
 * const context = await resolveContextBlock("Add a health route.", workspace);
 * if (context.warning !== undefined) console.warn(context.warning);
 * console.log(context.source, context.project.stack, context.conventions.text);
 * // "files" "hono" "# Conventions\n\nESM only. Zod for validation.\n"
 * ```
 */
export async function resolveContextBlock(
  prompt: string,
  workspace: Workspace,
  options: ResolveContextBlockOptions = {},
): Promise<ResolvedContext> {
  requireWorkspace("workspace", workspace);
  requireObject("options", options);
  const { projectJsonPath = "docs/project.json", conventionsPath = CONVENTIONS_PATH } = options;
  requireText("projectJsonPath", projectJsonPath);
  requireText("conventionsPath", conventionsPath);
  const { maxFileBytes: maxBytes = 64 * 1024 } = options;
  requireWholeNumber("maxFileBytes", maxBytes, 1);
  const parsed = parseContextBlock(prompt, options);
  const warnings = "warning" in parsed && parsed.warning !== undefined ? [parsed.warning] : [];
  const withWarning = (result: ResolvedContext) =>
    warnings.length === 0 ? result : { ...result, warning: warnings.join(" ") };
  if (parsed.status === "found") {
    const { block, request } = parsed;
    const { path, stack, commands } = block.project;
    return withWarning({
      source: "block",
      status: "found",
      block,
      project: { path, stack, commands: { ...commands }, name: undefined },
      conventions: {
        text: block.conventions.summary,
        fullPath: block.conventions.fullPath,
        truncated: false,
      },
      currentWork: block.currentWork,
      projectJson: undefined,
      request,
      issues: [],
    });
  }

  const issues = parsed.status === "missing" ? [] : [...parsed.issues];
  if (parsed.status !== "missing") {
    const reason =
      parsed.status === "invalid" ? "is invalid (see issues)" : "has an unsupported version";
    warnings.push(
      `The <context> block ${reason}, so it was ignored and ${projectJsonPath} and ${conventionsPath} were read instead.`,
    );
  }
  const read = async (path: string, consequence: string): Promise<TextFile | undefined> => {
    try {
      return await readTextFile(workspace, path, maxBytes);
    } catch (error) {
      if (!TaskContextError.isInstance(error)) throw error;
      warnings.push(
        FileNotFoundError.isInstance(error)
          ? `${path} was not found in the workspace, so ${consequence}. Create ${path}, or have the sender put a <context> block at the start of the prompt.`
          : `${path} could not be read, so ${consequence}: ${error.message}`,
      );
      return undefined;
    }
  };
  const [projectFile, conventionsFile] = await Promise.all([
    read(projectJsonPath, "the project's stack and commands are unknown"),
    read(conventionsPath, "no conventions are known"),
  ]);

  const { json: projectJson, project } = readProjectJson(projectFile, maxBytes, issues);
  let text = conventionsFile?.text;
  const advice = "Keep it shorter, or raise maxFileBytes.";
  if (conventionsFile !== undefined) warnings.push(...readNotes(conventionsFile, maxBytes, advice));
  if (text !== undefined && text.trim() === "") {
    warnings.push(`${conventionsPath} is empty; no conventions are known.`);
    text = undefined;
  }
  return withWarning({
    source: "files",
    status: parsed.status,
    block: undefined,
    project,
    conventions: { text, fullPath: undefined, truncated: conventionsFile?.truncated ?? false },
    currentWork: undefined,
    projectJson,
    request: parsed.request,
    issues,
  });
}

/** The fields of `docs/project.json` a receiver uses; any others are kept as they are. */
const projectJsonSchema = z.looseObject({
  name: z.optional(z.nullable(z.string())),
  stack: z.optional(z.nullable(z.string())),
  commands: z.optional(z.nullable(z.record(z.string(), z.string()))),
});

/**
 * `docs/project.json` as an object, and the project facts in it. Malformed content becomes
 * issues: a file over the limit or not JSON is ignored; a field of the wrong type (`stack`,
 * `name`, `commands` or one command) is ignored and the rest is kept.
 */
function readProjectJson(
  file: TextFile | undefined,
  maxBytes: number,
  issues: ContextBlockIssue[],
): { json: Record<string, unknown> | undefined; project: ResolvedProject } {
  const project: ResolvedProject = {
    path: undefined,
    stack: undefined,
    commands: {},
    name: undefined,
  };
  if (file === undefined) return { json: undefined, project };
  const refuse = (message: string, line?: number) => {
    issues.push({ path: "", message, file: file.path, ...(line === undefined ? {} : { line }) });
    return { json: undefined, project };
  };
  if (file.truncated) {
    return refuse(
      `${file.path} is ${file.size} bytes, over the ${maxBytes}-byte limit, so it was not parsed. Keep it to the project's stack, commands and a few settings.`,
    );
  }
  let json: unknown;
  try {
    // JSON.parse makes "__proto__" an ordinary own key: no prototype pollution.
    json = JSON.parse(file.text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message)?.[1];
    const line = position === undefined ? undefined : lineNumberAt(file.text, Number(position));
    return refuse(`${file.path} is not valid JSON (${message}). Fix the syntax.`, line);
  }
  // JSON.parse made each "__proto__" key an ordinary own property; copied into another object by
  // the caller, it would still replace that object's prototype. Drop them before anything reads.
  const prototypeKeys = dropPrototypeKeys(json);
  const checked = checkValue(projectJsonSchema, json, { root: file.path });
  const ignored = (issue: ValidationIssue, aboutTheFile: boolean) => {
    // A message about the whole file starts with its path (checkValue's root) already.
    const message = aboutTheFile ? issue.message : `${file.path}: ${issue.message}`;
    issues.push({ ...issue, message: `${message} It was ignored.`, file: file.path });
  };
  for (const issue of checked.issues) {
    if (issue.path === "") {
      issues.push({ ...issue, message: `${issue.message} The file was ignored.`, file: file.path });
    } else ignored(issue, false);
  }
  for (const path of prototypeKeys) {
    ignored(prototypeKeyIssue(path, { root: file.path }), path.length === 1);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return { json: undefined, project };
  // JSON.parse gives own properties only, over Object.prototype, which has none of these names.
  const fields = json as Record<string, unknown>;
  if (typeof fields.stack === "string") project.stack = fields.stack;
  if (typeof fields.name === "string") project.name = fields.name;
  const { commands } = fields;
  if (typeof commands === "object" && commands !== null && !Array.isArray(commands)) {
    for (const [name, command] of Object.entries(commands)) {
      if (typeof command === "string") project.commands[name] = command;
    }
  }
  return { json: fields, project };
}

/**
 * Deletes every own `__proto__` key of a value fresh from `JSON.parse` (a tree, bounded by the
 * file's size) and returns their paths, breadth-first.
 */
function dropPrototypeKeys(json: unknown): Array<Array<string | number>> {
  const dropped: Array<Array<string | number>> = [];
  const pending: Array<[unknown, Array<string | number>]> = [[json, []]];
  for (let index = 0; index < pending.length; index++) {
    const [value, path] = pending[index] as [unknown, Array<string | number>];
    if (typeof value !== "object" || value === null) continue;
    if (Object.hasOwn(value, "__proto__")) {
      Reflect.deleteProperty(value, "__proto__");
      dropped.push([...path, "__proto__"]);
    }
    for (const [key, child] of Object.entries(value)) {
      if (typeof child === "object" && child !== null) {
        pending.push([child, [...path, Array.isArray(value) ? Number(key) : key]]);
      }
    }
  }
  return dropped;
}
