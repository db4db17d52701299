import { FileNotFoundError, type Workspace } from "@task-context/core";
import { decodeUtf8, requireWorkspace } from "@task-context/core/internal";
import { requireSubagentType } from "../check-arguments.ts";
import { parseUntrustedYaml, type UntrustedYaml } from "../context-block/safe-yaml.ts";
import { ContextLimitsError } from "../errors/context-limits-error.ts";
import { InvalidYamlError } from "../errors/invalid-yaml-error.ts";
import {
  type ContextLimits,
  type ContextLimitsConfig,
  contextLimitsConfigSchema,
} from "../schemas/context-limits.ts";
import type { SubagentTaskType } from "../schemas/subagent-context.ts";
import { checkValue, fromJsonPointer } from "../validate/issues.ts";

/** Where Sage keeps the limits: `.sage/config/context-limits.yaml`. */
export const CONTEXT_LIMITS_PATH = ".sage/config/context-limits.yaml";

/** The largest limits file read, in bytes (a real one is a few hundred). */
export const MAX_CONTEXT_LIMITS_BYTES = 65_536;

/**
 * The limits used when the file is absent, and for every limit the file leaves out:
 * `max_total` 8 000 tokens for the whole document, `max_file_content` 2 000 tokens for one
 * file-content, story-excerpt, code-standards or other item, `max_prior_output` 1 000 tokens for
 * one prior-output item. About 6 % of a 128 k-token window, leaving the subagent room to work.
 */
export const DEFAULT_CONTEXT_LIMITS: Readonly<ContextLimits> = Object.freeze({
  max_total: 8_000,
  max_file_content: 2_000,
  max_prior_output: 1_000,
});

/** A limits file is two levels deep (`overrides` → type → limit); allow a little slack. */
const MAX_CONTEXT_LIMITS_DEPTH = 4;

/**
 * Parses the text of a context-limits file as untrusted YAML (at most
 * {@link MAX_CONTEXT_LIMITS_BYTES}, shallow, unique keys, no aliases or tags), then checks it
 * against `contextLimitsConfigSchema`, so a misspelt subagent type in `overrides` is an error
 * rather than silently ignored. An empty file (or one with only comments) is `{}`.
 *
 * @throws {ContextLimitsError} with the line of the first problem.
 */
export function parseContextLimitsConfig(
  text: string,
  path: string = CONTEXT_LIMITS_PATH,
): ContextLimitsConfig {
  let yaml: UntrustedYaml;
  try {
    yaml = parseUntrustedYaml(text, {
      maxBytes: MAX_CONTEXT_LIMITS_BYTES,
      maxDepth: MAX_CONTEXT_LIMITS_DEPTH,
    });
  } catch (error) {
    if (!InvalidYamlError.isInstance(error)) throw error;
    const problem = `malformed YAML: ${error.detail.replace(/\.$/, "")}`;
    throw new ContextLimitsError({ path, problem, line: error.line, cause: error });
  }
  const value = yaml.value ?? {};
  const checked = checkValue(contextLimitsConfigSchema, value, { yaml: true, root: "the file" });
  if (checked.valid) return checked.data;
  const [first] = checked.issues;
  if (first !== undefined) {
    const keys = fromJsonPointer(first.path);
    const problem = checked.issues.map((issue) => issue.message).join(" ");
    throw new ContextLimitsError({
      path,
      problem: problem.replace(/\.$/, ""),
      line: yaml.lineOf(keys),
      key: keys.join("."),
    });
  }
  return contextLimitsConfigSchema.parse(value);
}

/** Copies the limits that are set in `partial` over `limits`. */
function overlay(
  limits: ContextLimits,
  partial: { [Key in keyof ContextLimits]?: number | undefined } | undefined,
): ContextLimits {
  return {
    max_total: partial?.max_total ?? limits.max_total,
    max_file_content: partial?.max_file_content ?? limits.max_file_content,
    max_prior_output: partial?.max_prior_output ?? limits.max_prior_output,
  };
}

/**
 * Reads `.sage/config/context-limits.yaml` and returns the limits for `subagentType`: its
 * overrides over the file's defaults over the built-in defaults (`max_total` 8 000,
 * `max_file_content` 2 000, `max_prior_output` 1 000 tokens), limit by limit. No file → the
 * built-in defaults. Reads at most 65 537 bytes. See
 * https://github.com/task-context/task-context/blob/main/docs/sage-context.md.
 *
 * @throws {ContextLimitsError} (`code: "INVALID_CONTEXT_LIMITS"`, with the line) for a file that
 *   is too large, not UTF-8, malformed YAML, or outside the schema; the workspace's own errors
 *   (such as `NotRegularFileError` for a directory) pass through.
 * @throws {ArgumentError} for a workspace or subagent type of the wrong kind.
 *
 * @example
 * ```ts source="../../examples/load-context-limits.ts"
 * import { memoryWorkspace } from "@task-context/core";
 * import { loadContextLimits } from "@task-context/protocols/sage";
 *
 * const workspace = memoryWorkspace({
 *   ".sage/config/context-limits.yaml": "overrides:\n  review:\n    max_total: 12000\n",
 * });
 * console.log(await loadContextLimits(workspace, "review"));
 * // { max_total: 12000, max_file_content: 2000, max_prior_output: 1000 }
 * ```
 */
export async function loadContextLimits(
  workspace: Workspace,
  subagentType?: SubagentTaskType,
): Promise<ContextLimits> {
  requireWorkspace("workspace", workspace);
  if (subagentType !== undefined) requireSubagentType("subagentType", subagentType);
  let file: Awaited<ReturnType<Workspace["readFile"]>>;
  try {
    file = await workspace.readFile(CONTEXT_LIMITS_PATH, {
      maxBytes: MAX_CONTEXT_LIMITS_BYTES + 1,
    });
  } catch (error) {
    if (FileNotFoundError.isInstance(error)) return { ...DEFAULT_CONTEXT_LIMITS };
    throw error;
  }
  if (file.size > MAX_CONTEXT_LIMITS_BYTES) {
    throw new ContextLimitsError({
      path: CONTEXT_LIMITS_PATH,
      problem: `the file is ${file.size} bytes, over the ${MAX_CONTEXT_LIMITS_BYTES}-byte limit; a limits file needs a few hundred`,
    });
  }
  const { text, replaced } = decodeUtf8(file.bytes, true);
  if (replaced) {
    throw new ContextLimitsError({
      path: CONTEXT_LIMITS_PATH,
      problem: "the file is not valid UTF-8",
    });
  }
  const config = parseContextLimitsConfig(text, CONTEXT_LIMITS_PATH);
  const defaults = overlay({ ...DEFAULT_CONTEXT_LIMITS }, config.defaults);
  return subagentType === undefined
    ? defaults
    : overlay(defaults, config.overrides?.[subagentType]);
}
