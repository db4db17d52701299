import {
  ArgumentError,
  approximateTokenizer,
  type Tokenizer,
  type UntrustedFinding,
  untrustedContentWarning,
  type Workspace,
} from "@task-context/core";
import {
  decodeUtf8,
  describeArgument,
  encodeUtf8,
  requireObject,
  requireTokenizer,
  requireWorkspace,
} from "@task-context/core/internal";
import { requireSubagentType } from "../check-arguments.ts";
import { InvalidSubagentContextError } from "../errors/invalid-subagent-context-error.ts";
import { InvalidTaskIdError } from "../errors/invalid-task-id-error.ts";
import type { ContextLimits } from "../schemas/context-limits.ts";
import {
  type SubagentTaskType,
  subagentContextSchema,
  taskIdSchema,
} from "../schemas/subagent-context.ts";
import { checkValue } from "../validate/issues.ts";
import { applyContextLimits } from "./apply-context-limits.ts";
import { loadContextLimits } from "./load-context-limits.ts";
import { parseSubagentContext } from "./parse-subagent-context.ts";
import { sanitizeSubagentContextWithFindings } from "./render-subagent-context.ts";
import { extractiveSummarizer, type Summarizer } from "./summarize.ts";
import { buildSubagentContext, type TaskData, taskDataSchema } from "./task-data.ts";

/** Where Sage writes context files: `.sage/context/{taskId}.xml`. */
const CONTEXT_DIRECTORY = ".sage/context";

/** Sage's input: `task_id`, `subagent_type`, `task_data`. */
export interface GenerateContextRequest {
  /** A plain file name: letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
  taskId: string;
  /** Whose limits apply, and the document's `<type>`. */
  subagentType: SubagentTaskType;
  /** What the document says. */
  taskData: TaskData;
}

/** Where `generateContext` reports. `console` fits. */
export interface SageLogger {
  /** Receives `Context generated for {taskId}: {tokens} tokens` (Sage's step 4). */
  info(message: string): void;
  /**
   * Receives each warning (an item summarized, referenced or truncated; earlier work
   * neutralised), when defined.
   */
  warn?(message: string): void;
}

/** How `generateContext` reads, writes, counts and summarizes. */
export interface GenerateContextOptions {
  /** Where `.sage/config/context-limits.yaml` is read and `.sage/context/` written. */
  workspace: Workspace;
  /** Counts tokens for every limit. Default: `approximateTokenizer`; pass `o200kTokenizer` for exact counts. */
  tokenizer?: Tokenizer;
  /** Shortens items over budget. Default: {@link extractiveSummarizer}. */
  summarize?: Summarizer;
  /** Default: none. The library never writes to the console by itself (stdout may be a protocol channel). */
  logger?: SageLogger;
}

/** What `generateContext` wrote. */
export interface GeneratedContext {
  /** `.sage/context/{taskId}.xml`, relative to the workspace (Sage's step 5). */
  path: string;
  /** Tokens of the written file, counted exactly with the tokenizer. */
  tokens: number;
  /**
   * One sentence per context item that was summarized, replaced with a reference or truncated,
   * then core's `untrustedContentWarning` of `findings`, joined by spaces; absent when every item
   * was kept whole and nothing was neutralised.
   */
  warning?: string;
  /**
   * What was neutralised in earlier work (`prior-output` items and items with `untrusted: true`),
   * in item order: each finding's kind, line and the item it was in (`context item 2
   * (prior-output from subagent implement-1)`); empty when nothing was.
   */
  findings: UntrustedFinding[];
  /** The limits that applied. */
  limits: ContextLimits;
}

const SILENT: SageLogger = { info() {} };

/** Counts each distinct text once: strategies and summaries count the same pieces repeatedly. */
function rememberCounts(tokenizer: Tokenizer): Tokenizer {
  const counts = new Map<string, number>();
  return {
    name: tokenizer.name,
    count(text) {
      let tokens = counts.get(text);
      if (tokens === undefined) {
        tokens = tokenizer.count(text);
        counts.set(text, tokens);
      }
      return tokens;
    },
    truncate: (text, maxTokens) => tokenizer.truncate(text, maxTokens),
  };
}

/**
 * Sage's `generate_context`: writes a bounded `<subagent-context>` XML file for one subagent and
 * returns its path. The steps run in Sage's order:
 *
 * 1. load the limits for `subagentType` from `.sage/config/context-limits.yaml` (built-in
 *    defaults when absent);
 * 2. build the document from `taskData`; earlier work (`prior-output` items, items with
 *    `untrusted: true`) is marked `untrusted="true"` and neutralised by core's
 *    `neutralisePosingText`, and what was neutralised is returned as `findings` and in `warning`;
 * 3. apply the limits: each context item within its own limit, then the document within
 *    `max_total`, by summarizing, replacing file content with a path reference, and truncating;
 *    throws `ContextTooLargeError` ("task too large for subagent") when it cannot fit;
 * 4. write `.sage/context/{taskId}.xml` atomically through the workspace, read it back and check
 *    it is well-formed, and log `Context generated for {taskId}: {tokens} tokens`;
 * 5. return the path.
 *
 * Everything is checked before anything is read or written: a `taskId` that is not a plain file
 * name (`../x`, `a/b`, `/etc/x`, NUL, empty, not a string) throws `InvalidTaskIdError`; a bad
 * subagent type, task data or option throws `ArgumentError`. See
 * https://github.com/task-context/task-context/blob/main/docs/sage-context.md.
 *
 * @example
 * ```ts source="../../examples/generate-context.ts"
 * import { memoryWorkspace } from "@task-context/core";
 * import { generateContext } from "@task-context/protocols/sage";
 *
 * const workspace = memoryWorkspace();
 * const { path, tokens, warning } = await generateContext(
 *   {
 *     taskId: "story-12.task-3",
 *     subagentType: "implement",
 *     taskData: {
 *       description: "Add Markdown export to the note menu",
 *       storyRef: "docs/stories/story-12.md",
 *       filesToModify: ["src/export.ts"],
 *       context: [
 *         { type: "story-excerpt", content: "Users export a note as Markdown from the note menu." },
 *       ],
 *     },
 *   },
 *   { workspace, logger: console }, // logs "Context generated for story-12.task-3: 386 tokens"
 * );
 * console.log(path, tokens, warning); // ".sage/context/story-12.task-3.xml" 386 undefined
 * ```
 */
export async function generateContext(
  request: GenerateContextRequest,
  options: GenerateContextOptions,
): Promise<GeneratedContext> {
  requireObject("request", request);
  const { taskId, subagentType, taskData } = request;
  if (typeof taskId !== "string" || !taskIdSchema.safeParse(taskId).success) {
    throw new InvalidTaskIdError({ taskId: String(taskId) });
  }
  requireSubagentType("subagentType", subagentType);
  requireObject("taskData", taskData);
  const checkedTaskData = checkValue(taskDataSchema, taskData, { root: "taskData" });
  if (!checkedTaskData.valid) {
    throw new ArgumentError({
      argument: "taskData",
      message: checkedTaskData.issues.map((issue) => issue.message).join(" "),
    });
  }
  const data = checkedTaskData.data;
  requireObject("options", options);
  requireWorkspace("workspace", options.workspace);
  // Only an absent option takes its default: null is refused like any other wrong type.
  const { summarize = extractiveSummarizer, logger = SILENT } = options;
  const counting = requireTokenizer(
    "tokenizer",
    options.tokenizer === undefined ? approximateTokenizer : options.tokenizer,
  );
  if (typeof summarize !== "function") {
    throw new ArgumentError({
      argument: "summarize",
      message: `expected a function (text, maxTokens, info) returning a string, got ${describeArgument(summarize)}.`,
    });
  }
  if (
    typeof logger?.info !== "function" ||
    (logger.warn !== undefined && typeof logger.warn !== "function")
  ) {
    throw new ArgumentError({
      argument: "logger",
      message: `expected an object with an info method (and, optionally, warn), such as console, got ${describeArgument(logger)}.`,
    });
  }
  const { workspace } = options;
  const tokenizer = rememberCounts(counting);

  // Step 1: load context limits.
  const limits = await loadContextLimits(workspace, subagentType);

  // Step 2: build the document.
  // Earlier work is marked untrusted and neutralised here, before any limit is applied.
  const sanitized = sanitizeSubagentContextWithFindings(
    buildSubagentContext(taskId, subagentType, data),
  );
  const document = sanitized.doc;
  const checked = checkValue(subagentContextSchema, document);
  if (!checked.valid) throw new InvalidSubagentContextError({ issues: checked.issues });

  // Step 3: apply context limits.
  const fitted = await applyContextLimits(document, limits, {
    tokenizer,
    summarize,
    subagentType,
  });
  const findings = [...sanitized.findings, ...fitted.findings];
  const untrusted = untrustedContentWarning(findings);
  const warnings = untrusted === undefined ? fitted.warnings : [...fitted.warnings, untrusted];
  for (const warning of warnings) logger.warn?.(warning);

  // Step 4: write, check well-formed, log.
  const path = `${CONTEXT_DIRECTORY}/${taskId}.xml`;
  const bytes = encodeUtf8(fitted.xml);
  await workspace.writeFile(path, bytes);
  const written = await workspace.readFile(path, { maxBytes: bytes.length + 1 });
  parseSubagentContext(decodeUtf8(written.bytes, true).text);
  logger.info(`Context generated for ${taskId}: ${fitted.tokens} tokens`);

  // Step 5: return the path.
  const result: GeneratedContext = { path, tokens: fitted.tokens, limits, findings };
  if (warnings.length > 0) result.warning = warnings.join(" ");
  return result;
}
