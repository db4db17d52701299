import { TaskContextError, type Workspace } from "@task-context/core";
import {
  lineNumberAt,
  requireObject,
  requireText,
  requireWholeNumber,
  requireWorkspace,
} from "@task-context/core/internal";
import type { ContextBlock } from "../schemas/context-block.ts";
import { describeValue, fieldLabel, toJsonPointer } from "../validate/issues.ts";
import {
  type ContextBlockIssue,
  type ContextBlockStatus,
  type ParseContextBlockOptions,
  parseContextBlock,
} from "./parse-context-block.ts";
import { CONVENTIONS_PATH } from "./read-full-conventions.ts";
import { DEFAULT_MAX_FILE_BYTES, readTextFile, type TextFile } from "./read-text-file.ts";

/** Where receivers find the project's stack and commands without a block. */
const PROJECT_JSON_PATH = "docs/project.json";

/** Messages about the fallback files say "text", "a list" and "a mapping", as the block's do. */
const YAML_WORDS = { yaml: true };

/** Options for {@link resolveContextBlock}. */
export interface ResolveContextBlockOptions extends ParseContextBlockOptions {
  /** The project file to fall back to (default `docs/project.json`). */
  projectJsonPath?: string;
  /** The conventions file to fall back to (default `docs/CONVENTIONS.md`). */
  conventionsPath?: string;
  /** Read at most this many bytes of each fallback file (default 65 536). */
  maxFileBytes?: number;
}

/** The project facts a receiver works with, from the block or from `docs/project.json`. */
export interface ResolvedProject {
  /**
   * The project root from the block's `project.path` (spec 004: "use it as working directory").
   * Undefined when the files were read: the receiver's own workspace is the project.
   */
  path: string | undefined;
  /** The stack identifier, e.g. `nextjs-prisma`; undefined when no source names it. */
  stack: string | undefined;
  /** Named commands (`dev`, `test`, `build`, `lint`, …); empty when none are known. */
  commands: Record<string, string>;
  /** `name` from `docs/project.json`, when it has one. */
  name: string | undefined;
}

/** The conventions a receiver follows. */
export interface ResolvedConventions {
  /** The block's `conventions.summary`, or the text of `docs/CONVENTIONS.md`. */
  text: string | undefined;
  /**
   * The block's `conventions.fullPath`, for {@link readFullConventions} when the summary is not
   * enough. Undefined when the files were read (the text is already the full file).
   */
  fullPath: string | undefined;
  /** True when `docs/CONVENTIONS.md` was longer than the read limit and `text` is its start. */
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
  /** The parsed `docs/project.json` object, for fields beyond stack, commands and name. */
  projectJson: Record<string, unknown> | undefined;
  /** The request: the prompt after the block (the whole prompt when there is no block). */
  request: string;
  /** Problems with the block (when it was not used) and with the fallback files' content. */
  issues: ContextBlockIssue[];
  /** Why the block was not used, missing or cut files, a long summary; absent when all is well. */
  warning?: string;
}

/**
 * Context Protocol v1's receiver rules in one call. When the prompt starts with a valid v1 block, its values
 * are used and no file is read. Otherwise (no block, an unsupported version, or an invalid block)
 * `docs/project.json` and `docs/CONVENTIONS.md` are read through the workspace, each bounded to
 * `maxFileBytes`: `stack`, `commands` and `name` come from the JSON, and the Markdown's text
 * becomes the conventions. Missing or unreadable files become warnings, malformed content becomes
 * issues; nothing here throws for a missing file. Errors that are not the workspace's own
 * (say, a permission error from the disk) propagate.
 *
 * To read the full conventions when a block's summary is not enough, call
 * {@link readFullConventions} with `result.block`. See
 * https://github.com/task-context/task-context/blob/main/docs/context-protocol.md.
 *
 * @throws {ArgumentError} when `prompt` is not a string, `workspace` not a workspace, or an
 *   option has the wrong type.
 *
 * @example
 * ```ts
 * import { memoryWorkspace } from "@task-context/core";
 * import { resolveContextBlock } from "@task-context/protocols/context-block";
 *
 * const workspace = memoryWorkspace({
 *   "docs/project.json": '{"stack": "hono", "commands": {"test": "npm test"}}',
 *   "docs/CONVENTIONS.md": "ESM only. Zod for validation.",
 * });
 * const context = await resolveContextBlock("Add a health route.", workspace);
 * if (context.warning !== undefined) console.warn(context.warning);
 * const system = `Stack: ${context.project.stack}\nConventions:\n${context.conventions.text}`;
 * ```
 */
export async function resolveContextBlock(
  prompt: string,
  workspace: Workspace,
  options: ResolveContextBlockOptions = {},
): Promise<ResolvedContext> {
  requireWorkspace("workspace", workspace);
  requireObject("options", options);
  const parsed = parseContextBlock(prompt, options);
  if (parsed.status === "found") {
    const { block } = parsed;
    const result: ResolvedContext = {
      source: "block",
      status: parsed.status,
      block,
      project: {
        path: block.project.path,
        stack: block.project.stack,
        commands: { ...block.project.commands },
        name: undefined,
      },
      conventions: {
        text: block.conventions.summary,
        fullPath: block.conventions.fullPath,
        truncated: false,
      },
      currentWork: block.currentWork,
      projectJson: undefined,
      request: parsed.request,
      issues: [],
    };
    if (parsed.warning !== undefined) result.warning = parsed.warning;
    return result;
  }

  const projectJsonPath = requireText(
    "projectJsonPath",
    options.projectJsonPath ?? PROJECT_JSON_PATH,
  );
  const conventionsPath = requireText(
    "conventionsPath",
    options.conventionsPath ?? CONVENTIONS_PATH,
  );
  const maxBytes = requireWholeNumber(
    "maxFileBytes",
    options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    1,
  );
  const issues = parsed.status === "missing" ? [] : [...parsed.issues];
  const warnings =
    parsed.status === "missing" || parsed.warning === undefined ? [] : [parsed.warning];
  if (parsed.status === "unsupported-version" || parsed.status === "invalid") {
    const reason =
      parsed.status === "invalid" ? "is invalid (see issues)" : "has an unsupported version";
    warnings.push(
      `The <context> block ${reason}, so it was ignored and ${projectJsonPath} and ${conventionsPath} were read instead.`,
    );
  }

  const [projectFile, conventionsFile] = await Promise.all([
    readOptional(
      workspace,
      projectJsonPath,
      maxBytes,
      warnings,
      "the project's stack and commands are unknown",
    ),
    readOptional(workspace, conventionsPath, maxBytes, warnings, "no conventions are known"),
  ]);

  const project: ResolvedProject = {
    path: undefined,
    stack: undefined,
    commands: {},
    name: undefined,
  };
  let projectJson: Record<string, unknown> | undefined;
  if (projectFile !== undefined) {
    projectJson = readProjectJson(projectFile, maxBytes, issues);
    if (projectJson !== undefined) fillProject(project, projectJson, projectFile.path, issues);
  }

  let conventionsText: string | undefined;
  let truncated = false;
  if (conventionsFile !== undefined) {
    conventionsText = conventionsFile.text;
    truncated = conventionsFile.truncated;
    if (truncated) {
      warnings.push(
        `${conventionsPath} was truncated from ${conventionsFile.size} to ${maxBytes} bytes (limit ${maxBytes}). Keep it shorter, or raise maxFileBytes.`,
      );
    }
    if (conventionsFile.replaced) {
      warnings.push(
        `${conventionsPath} is not valid UTF-8; invalid bytes were replaced with U+FFFD.`,
      );
    }
    if (conventionsText.trim() === "") {
      warnings.push(`${conventionsPath} is empty; no conventions are known.`);
      conventionsText = undefined;
    }
  }

  const result: ResolvedContext = {
    source: "files",
    status: parsed.status,
    block: undefined,
    project,
    conventions: { text: conventionsText, fullPath: undefined, truncated },
    currentWork: undefined,
    projectJson,
    request: parsed.request,
    issues,
  };
  if (warnings.length > 0) result.warning = warnings.join(" ");
  return result;
}

/** Reads a fallback file; a workspace error (missing, not a file, outside) becomes a warning. */
async function readOptional(
  workspace: Workspace,
  path: string,
  maxBytes: number,
  warnings: string[],
  consequence: string,
): Promise<TextFile | undefined> {
  try {
    return await readTextFile(workspace, path, maxBytes);
  } catch (error) {
    if (!TaskContextError.isInstance(error)) throw error;
    warnings.push(
      error.code === "FILE_NOT_FOUND"
        ? `${path} was not found in the workspace, so ${consequence}. Create ${path}, or have the sender put a <context> block at the start of the prompt.`
        : `${path} could not be read, so ${consequence}: ${error.message}`,
    );
    return undefined;
  }
}

function fileIssue(
  file: string,
  path: (string | number)[],
  message: string,
  line?: number,
): ContextBlockIssue {
  const issue: ContextBlockIssue = { path: toJsonPointer(path), message, file };
  if (line !== undefined) issue.line = line;
  return issue;
}

/** Parses `docs/project.json`; malformed content becomes an issue and undefined. */
function readProjectJson(
  file: TextFile,
  maxBytes: number,
  issues: ContextBlockIssue[],
): Record<string, unknown> | undefined {
  if (file.truncated) {
    issues.push(
      fileIssue(
        file.path,
        [],
        `${file.path} is ${file.size} bytes, over the ${maxBytes}-byte limit, so it was not parsed. Keep it to the project's stack, commands and a few settings.`,
      ),
    );
    return undefined;
  }
  let value: unknown;
  try {
    // JSON.parse makes "__proto__" an ordinary own key: no prototype pollution.
    value = JSON.parse(file.text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message)?.[1];
    const line = position === undefined ? undefined : lineNumberAt(file.text, Number(position));
    issues.push(
      fileIssue(
        file.path,
        [],
        `${file.path} is not valid JSON (${message}). Fix the syntax.`,
        line,
      ),
    );
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    issues.push(
      fileIssue(
        file.path,
        [],
        `${file.path} must hold a JSON object such as {"stack": "nextjs-prisma", "commands": {"test": "npm test"}}, not ${describeValue(value, YAML_WORDS)}.`,
      ),
    );
    return undefined;
  }
  return value as Record<string, unknown>;
}

/** Takes `stack`, `commands` and `name` from project.json; wrong types become issues. */
function fillProject(
  project: ResolvedProject,
  json: Record<string, unknown>,
  file: string,
  issues: ContextBlockIssue[],
): void {
  const text = (key: string): string | undefined => {
    if (!Object.hasOwn(json, key) || json[key] === undefined || json[key] === null)
      return undefined;
    if (typeof json[key] === "string") return json[key];
    issues.push(
      fileIssue(
        file,
        [key],
        `${key} in ${file} must be text, not ${describeValue(json[key], YAML_WORDS)}; it was ignored.`,
      ),
    );
    return undefined;
  };
  project.stack = text("stack");
  project.name = text("name");
  if (!Object.hasOwn(json, "commands") || json.commands === undefined || json.commands === null)
    return;
  const commands = json.commands;
  if (typeof commands !== "object" || Array.isArray(commands)) {
    issues.push(
      fileIssue(
        file,
        ["commands"],
        `commands in ${file} must be an object of command names to command lines, such as {"test": "npm test"}, not ${describeValue(commands, YAML_WORDS)}; it was ignored.`,
      ),
    );
    return;
  }
  for (const [name, command] of Object.entries(commands)) {
    if (typeof command === "string" && name !== "__proto__") {
      project.commands[name] = command;
    } else {
      const reason =
        name === "__proto__"
          ? 'the name "__proto__" is not allowed'
          : `it must be text, not ${describeValue(command, YAML_WORDS)}`;
      issues.push(
        fileIssue(
          file,
          ["commands", name],
          `${fieldLabel(["commands", name])} in ${file} was ignored: ${reason}.`,
        ),
      );
    }
  }
}
