import {
  ArgumentError,
  approximateTokenizer,
  type Tokenizer,
  type Workspace,
} from "@task-context/core";
import { InvalidSubagentContextError } from "../errors/invalid-subagent-context-error.ts";
import { InvalidTaskIdError } from "../errors/invalid-task-id-error.ts";
import type { ContextLimits } from "../schemas/context-limits.ts";
import {
  type SubagentTaskType,
  subagentContextSchema,
  subagentTaskTypeSchema,
  taskIdSchema,
} from "../schemas/subagent-context.ts";
import { applyContextLimits } from "./apply-context-limits.ts";
import { loadContextLimits } from "./load-context-limits.ts";
import { parseSubagentContext } from "./parse-subagent-context.ts";
import { sanitizeSubagentContext, subagentContextIssues } from "./render-subagent-context.ts";
import { extractiveSummarizer, type Summarizer } from "./summarize.ts";
import { buildSubagentContext, type TaskData, taskDataSchema } from "./task-data.ts";

/** Where spec 002 writes context files: `.sage/context/{taskId}.xml`. */
export const CONTEXT_DIRECTORY = ".sage/context";

/** Spec 002's input: `task_id`, `subagent_type`, `task_data`. */
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
  /** Receives `Context generated for {taskId}: {tokens} tokens` (spec 002, step 4). */
  info(message: string): void;
  /** Receives each warning (an item summarized, referenced or truncated), when defined. */
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
  /** `.sage/context/{taskId}.xml`, relative to the workspace (spec 002, step 5). */
  path: string;
  /** Tokens of the written file, counted exactly with the tokenizer. */
  tokens: number;
  /** One sentence per context item that was summarized, replaced with a reference or truncated. */
  warnings: string[];
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

const issueList = (issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) =>
  issues
    .map((issue) => {
      const key = issue.path.map(String).join(".");
      return key === "" ? issue.message : `${key}: ${issue.message}`;
    })
    .join("; ");

/**
 * Spec 002's `generate_context`: writes a bounded `<subagent-context>` XML file for one subagent
 * and returns its path. The steps run in the spec's order:
 *
 * 1. load the limits for `subagentType` from `.sage/config/context-limits.yaml` (built-in
 *    defaults when absent);
 * 2. build the document from `taskData`;
 * 3. apply the limits: each context item within its own limit, then the document within
 *    `max_total`, by summarizing, replacing file content with a path reference, and truncating
 *    (see `applyContextLimits`); throws `ContextTooLargeError` ("task too large for subagent")
 *    when it cannot fit;
 * 4. write `.sage/context/{taskId}.xml` atomically through the workspace, read it back and check
 *    it is well-formed, and log `Context generated for {taskId}: {tokens} tokens`;
 * 5. return the path.
 *
 * `taskId`, `subagentType` and `taskData` are checked before anything is read or written:
 * an id that is not a plain file name (`../x`, `a/b`, `/etc/x`, NUL, empty) throws
 * `InvalidTaskIdError`; a bad type or task data throws `ArgumentError`.
 *
 * @example
 * ```ts
 * const { path, tokens, warnings } = await generateContext(
 *   {
 *     taskId: "story-12.task-3",
 *     subagentType: "implement",
 *     taskData: {
 *       description: "Add Markdown export to the note menu",
 *       storyRef: "docs/stories/story-12.md",
 *       filesToModify: ["src/export.ts"],
 *       context: [{ type: "story-excerpt", content: storyText }],
 *     },
 *   },
 *   { workspace: nodeWorkspace(root), tokenizer: o200kTokenizer, logger: console },
 * );
 * // path === ".sage/context/story-12.task-3.xml"
 * ```
 */
export async function generateContext(
  request: GenerateContextRequest,
  options: GenerateContextOptions,
): Promise<GeneratedContext> {
  const { taskId, subagentType, taskData } = request;
  if (typeof taskId !== "string" || !taskIdSchema.safeParse(taskId).success) {
    throw new InvalidTaskIdError({ taskId: String(taskId) });
  }
  if (!subagentTaskTypeSchema.safeParse(subagentType).success) {
    throw new ArgumentError({
      argument: "subagentType",
      message: `expected one of ${subagentTaskTypeSchema.options.join(", ")}, got ${JSON.stringify(subagentType)}.`,
    });
  }
  const data = taskDataSchema.safeParse(taskData);
  if (!data.success) {
    throw new ArgumentError({ argument: "taskData", message: `${issueList(data.error.issues)}.` });
  }
  const { workspace, logger = SILENT } = options;
  const tokenizer = rememberCounts(options.tokenizer ?? approximateTokenizer);
  const summarize = options.summarize ?? extractiveSummarizer;

  // Step 1: load context limits.
  const limits = await loadContextLimits(workspace, subagentType);

  // Step 2: build the document.
  const built = subagentContextSchema.safeParse(
    sanitizeSubagentContext(buildSubagentContext(taskId, subagentType, data.data)),
  );
  if (!built.success) {
    throw new InvalidSubagentContextError({ issues: subagentContextIssues(built.error) });
  }

  // Step 3: apply context limits.
  const fitted = await applyContextLimits(built.data, limits, {
    tokenizer,
    summarize,
    subagentType,
  });
  for (const warning of fitted.warnings) logger.warn?.(warning);

  // Step 4: write, check well-formed, log.
  const path = `${CONTEXT_DIRECTORY}/${taskId}.xml`;
  const bytes = new TextEncoder().encode(fitted.xml);
  await workspace.writeFile(path, bytes);
  const written = await workspace.readFile(path, { maxBytes: bytes.length + 1 });
  parseSubagentContext(new TextDecoder("utf-8", { fatal: true }).decode(written.bytes));
  logger.info(`Context generated for ${taskId}: ${fitted.tokens} tokens`);

  // Step 5: return the path.
  return { path, tokens: fitted.tokens, warnings: fitted.warnings, limits };
}
