import { FileNotFoundError, InvalidArgumentError, type Workspace } from "@task-context/core";
import { isAlias, isMap, isNode, isScalar, LineCounter, parseDocument, visit } from "yaml";
import type { z } from "zod";
import { ContextLimitsError } from "../errors/context-limits-error.ts";
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

const MAX_FLOW_DEPTH = 16;
const MAX_INDENTATION = 64;
const MAX_BLOCK_INDICATORS_PER_LINE = 8;
const BLOCK_INDICATOR = /(?:^|[ \t])[-?:](?=[ \t]|$)/g;
const SUBAGENT_TYPES: readonly string[] = subagentTaskTypeSchema.options;

interface Position {
  line?: number;
  column?: number;
  key?: string;
}

/**
 * Refuses nesting deeper than any limits file needs before the YAML parser sees it: deep nesting
 * makes `yaml` recurse until the stack runs out.
 */
function checkNesting(text: string, path: string): void {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 10) {
      line++;
      lineStart = index + 1;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > MAX_FLOW_DEPTH) {
        throw new ContextLimitsError(path, `nesting deeper than ${MAX_FLOW_DEPTH} levels`, {
          line,
          column: index - lineStart + 1,
        });
      }
    } else if ((code === 0x5d || code === 0x7d) && depth > 0) depth--;
  }
  for (const [index, content] of text.split("\n").entries()) {
    const indentation = content.length - content.trimStart().length;
    const indicators = content.match(BLOCK_INDICATOR)?.length ?? 0;
    if (indentation > MAX_INDENTATION || indicators > MAX_BLOCK_INDICATORS_PER_LINE) {
      throw new ContextLimitsError(path, "nesting deeper than a limits file needs", {
        line: index + 1,
        column: 1,
      });
    }
  }
}

/** The position of the node at `keys` (or of its nearest existing ancestor) in the document. */
function positionOf(
  document: ReturnType<typeof parseDocument>,
  lineCounter: LineCounter,
  keys: readonly PropertyKey[],
  unknownKey?: string,
): Position {
  const key = [...keys, ...(unknownKey === undefined ? [] : [unknownKey])].map(String).join(".");
  for (let length = keys.length; length >= 0; length--) {
    const node = length === 0 ? document.contents : document.getIn(keys.slice(0, length), true);
    if (!isNode(node)) continue;
    let offset = node.range?.[0];
    if (length === keys.length && unknownKey !== undefined && isMap(node)) {
      const pair = node.items.find(
        (item) => isScalar(item.key) && String(item.key.value) === unknownKey,
      );
      if (isNode(pair?.key)) offset = pair.key.range?.[0] ?? offset;
    }
    if (offset === undefined) continue;
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col, key };
  }
  return { key };
}

const describeIssue = (issue: z.core.$ZodIssue) => {
  const key = issue.path.map(String).join(".");
  return key === "" ? issue.message : `${key}: ${issue.message}`;
};

/**
 * Parses the text of a context-limits file (YAML 1.2, core schema) as untrusted input: at most
 * {@link MAX_CONTEXT_LIMITS_BYTES}, shallow nesting, unique keys, no aliases and no explicit tags;
 * then checks it against `contextLimitsConfigSchema` and that every `overrides` key is a subagent
 * type (implement, test, fix, review or plan), so a misspelt type is not silently ignored.
 * An empty file (or one with only comments) is `{}`.
 *
 * Throws {@link ContextLimitsError} with the line and column of the first problem.
 */
export function parseContextLimitsConfig(
  text: string,
  path: string = CONTEXT_LIMITS_PATH,
): ContextLimitsConfig {
  if (text.length > MAX_CONTEXT_LIMITS_BYTES) {
    throw new ContextLimitsError(
      path,
      `the text is longer than ${MAX_CONTEXT_LIMITS_BYTES} characters; a limits file needs a few hundred`,
    );
  }
  checkNesting(text, path);
  const lineCounter = new LineCounter();
  const document = parseDocument(text, {
    lineCounter,
    prettyErrors: false,
    schema: "core",
    strict: true,
    uniqueKeys: true,
    version: "1.2",
  });
  const [problem] = [...document.errors, ...document.warnings];
  if (problem !== undefined) {
    const { line, col } = lineCounter.linePos(problem.pos[0]);
    throw new ContextLimitsError(path, `malformed YAML: ${problem.message}`, {
      line,
      column: col,
    });
  }
  visit(document, {
    Node(_key, node) {
      const offset = node.range?.[0];
      const where = offset === undefined ? undefined : lineCounter.linePos(offset);
      const position = where === undefined ? {} : { line: where.line, column: where.col };
      if (isAlias(node)) {
        throw new ContextLimitsError(path, "YAML aliases (*name) are not allowed", position);
      }
      if (node.tag !== undefined) {
        throw new ContextLimitsError(path, `YAML tags (${node.tag}) are not allowed`, position);
      }
    },
  });
  const value = document.toJS({ maxAliasCount: 0 }) ?? {};
  // A misspelt subagent type gets its own message before the schema's generic one.
  const overrides = (value as { overrides?: unknown }).overrides;
  if (typeof overrides === "object" && overrides !== null && !Array.isArray(overrides)) {
    for (const type of Object.keys(overrides)) {
      if (!SUBAGENT_TYPES.includes(type)) {
        throw new ContextLimitsError(
          path,
          `overrides.${type}: unknown subagent type ${JSON.stringify(type)}; expected one of ${SUBAGENT_TYPES.join(", ")}`,
          positionOf(document, lineCounter, ["overrides"], type),
        );
      }
    }
  }
  const result = contextLimitsConfigSchema.safeParse(value);
  if (!result.success) {
    const [first] = result.error.issues;
    const unknownKey =
      first?.code === "unrecognized_keys" && first.keys.length > 0 ? first.keys[0] : undefined;
    throw new ContextLimitsError(
      path,
      result.error.issues.map(describeIssue).join("; "),
      first === undefined ? {} : positionOf(document, lineCounter, first.path, unknownKey),
    );
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
 * Throws {@link ContextLimitsError} (`code: "INVALID_CONTEXT_LIMITS"`, with the line and column)
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
    throw new InvalidArgumentError(
      "subagentType",
      `expected one of ${SUBAGENT_TYPES.join(", ")}, got ${JSON.stringify(subagentType)}.`,
    );
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
    throw new ContextLimitsError(
      CONTEXT_LIMITS_PATH,
      `the file is ${file.size} bytes, over the ${MAX_CONTEXT_LIMITS_BYTES}-byte limit; a limits file needs a few hundred`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(file.bytes);
  } catch (error) {
    throw new ContextLimitsError(
      CONTEXT_LIMITS_PATH,
      "the file is not valid UTF-8",
      {},
      { cause: error },
    );
  }
  return resolveContextLimits(parseContextLimitsConfig(text, CONTEXT_LIMITS_PATH), subagentType);
}
