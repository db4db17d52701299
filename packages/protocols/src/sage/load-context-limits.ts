import { ArgumentError, FileNotFoundError, type Workspace } from "@task-context/core";
import type { z } from "zod";
import {
  parseUntrustedYamlDocument,
  type UntrustedYamlDocument,
} from "../context-block/safe-yaml.ts";
import { ContextLimitsError } from "../errors/context-limits-error.ts";
import { InvalidYamlError } from "../errors/invalid-yaml-error.ts";
import {
  type ContextLimits,
  type ContextLimitsConfig,
  contextLimitsConfigSchema,
} from "../schemas/context-limits.ts";
import { type SubagentTaskType, subagentTaskTypeSchema } from "../schemas/subagent-context.ts";

/** Where spec 002 keeps the limits: `.sage/config/context-limits.yaml`. */
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

const SUBAGENT_TYPES: readonly string[] = subagentTaskTypeSchema.options;

/** A limits file is two levels deep (`overrides` → type → limit); allow a little slack. */
const MAX_CONTEXT_LIMITS_DEPTH = 4;

const describeIssue = (issue: z.core.$ZodIssue) => {
  const key = issue.path.map(String).join(".");
  return key === "" ? issue.message : `${key}: ${issue.message}`;
};

/**
 * Parses the text of a context-limits file as untrusted YAML (`parseUntrustedYaml`'s rules: at
 * most {@link MAX_CONTEXT_LIMITS_BYTES}, shallow nesting, unique keys, no aliases and no explicit
 * tags); then checks it against `contextLimitsConfigSchema`, so a misspelt subagent type in
 * `overrides` is an error rather than silently ignored. An empty file (or one with only comments)
 * is `{}`.
 *
 * Throws {@link ContextLimitsError} with the line of the first problem.
 */
export function parseContextLimitsConfig(
  text: string,
  path: string = CONTEXT_LIMITS_PATH,
): ContextLimitsConfig {
  let document: UntrustedYamlDocument;
  try {
    document = parseUntrustedYamlDocument(text, {
      maxBytes: MAX_CONTEXT_LIMITS_BYTES,
      maxDepth: MAX_CONTEXT_LIMITS_DEPTH,
    });
  } catch (error) {
    if (!InvalidYamlError.isInstance(error)) throw error;
    throw new ContextLimitsError({
      path,
      problem: `malformed YAML: ${error.detail.replace(/\.$/, "")}`,
      line: error.line,
      cause: error,
    });
  }
  const value = document.value ?? {};
  // A misspelt subagent type gets its own message before the schema's generic one.
  const overrides = (value as { overrides?: unknown }).overrides;
  if (typeof overrides === "object" && overrides !== null && !Array.isArray(overrides)) {
    for (const type of Object.keys(overrides)) {
      if (!SUBAGENT_TYPES.includes(type)) {
        const line = document.lineOf(["overrides", type]);
        throw new ContextLimitsError({
          path,
          problem: `overrides.${type}: unknown subagent type ${JSON.stringify(type)}; expected one of ${SUBAGENT_TYPES.join(", ")}`,
          line,
          key: `overrides.${type}`,
        });
      }
    }
  }
  const result = contextLimitsConfigSchema.safeParse(value);
  if (!result.success) {
    const [first] = result.error.issues;
    const unknownKey =
      first?.code === "unrecognized_keys" && first.keys.length > 0 ? first.keys[0] : undefined;
    const issuePath =
      first === undefined
        ? []
        : [...first.path.map((key) => (typeof key === "number" ? key : String(key)))];
    const line = document.lineOf(unknownKey === undefined ? issuePath : [...issuePath, unknownKey]);
    throw new ContextLimitsError({
      path,
      problem: result.error.issues.map(describeIssue).join("; "),
      line,
      key: [...issuePath, ...(unknownKey === undefined ? [] : [unknownKey])].join("."),
    });
  }
  return result.data;
}

/** Copies the limits that are set in `partial` over `limits`. */
function overlay(
  limits: ContextLimits,
  partial: { [Key in keyof ContextLimits]?: number | undefined } | undefined,
): ContextLimits {
  if (partial === undefined) return limits;
  return {
    max_total: partial.max_total ?? limits.max_total,
    max_file_content: partial.max_file_content ?? limits.max_file_content,
    max_prior_output: partial.max_prior_output ?? limits.max_prior_output,
  };
}

/**
 * The limits for one subagent type: {@link DEFAULT_CONTEXT_LIMITS}, then the file's `defaults`,
 * then the file's `overrides[subagentType]`, limit by limit. Per-item limits above `max_total` are
 * allowed (`max_total` still bounds the whole document).
 */
export function resolveContextLimits(
  config: ContextLimitsConfig,
  subagentType?: SubagentTaskType,
): ContextLimits {
  const defaults = overlay({ ...DEFAULT_CONTEXT_LIMITS }, config.defaults);
  return subagentType === undefined
    ? defaults
    : overlay(defaults, config.overrides?.[subagentType]);
}

/**
 * Spec 002, step 1: reads `.sage/config/context-limits.yaml` and returns the limits for
 * `subagentType` (its overrides over the file's defaults over {@link DEFAULT_CONTEXT_LIMITS}).
 * No file → the built-in defaults. Reads at most {@link MAX_CONTEXT_LIMITS_BYTES} + 1 bytes.
 *
 * Throws {@link ContextLimitsError} (`code: "INVALID_CONTEXT_LIMITS"`, with the line)
 * for a file that is too large, not UTF-8, malformed YAML, or outside the schema; the workspace's
 * own errors (such as `NotRegularFileError` for a directory) pass through.
 *
 * @example
 * ```ts
 * const limits = await loadContextLimits(workspace, "review");
 * // { max_total: 12000, max_file_content: 2000, max_prior_output: 1000 }
 * ```
 */
export async function loadContextLimits(
  workspace: Workspace,
  subagentType?: SubagentTaskType,
): Promise<ContextLimits> {
  if (subagentType !== undefined && !SUBAGENT_TYPES.includes(subagentType)) {
    throw new ArgumentError({
      argument: "subagentType",
      message: `expected one of ${SUBAGENT_TYPES.join(", ")}, got ${JSON.stringify(subagentType)}.`,
    });
  }
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
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(file.bytes);
  } catch (error) {
    throw new ContextLimitsError({
      path: CONTEXT_LIMITS_PATH,
      problem: "the file is not valid UTF-8",
      cause: error,
    });
  }
  return resolveContextLimits(parseContextLimitsConfig(text, CONTEXT_LIMITS_PATH), subagentType);
}
