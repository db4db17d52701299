import {
  type FileContent,
  FileNotFoundError,
  type ReadFileOptions,
  type Tokenizer,
  type Workspace,
} from "@task-context/core";
import { encodeUtf8, parseWorkspacePath } from "@task-context/core/internal";
import {
  CONTEXT_LIMITS_PATH,
  generateContext,
  loadContextLimits,
  MAX_CONTEXT_LIMITS_BYTES,
  type Summarizer,
  type TaskData,
} from "@task-context/protocols/sage";
import type { SubagentType } from "./subagent-task.ts";

/** The parent's `.sage/config/context-limits.yaml`, read once for every subagent of a call. */
export interface ParentLimits {
  /** The file's bytes (at most `MAX_CONTEXT_LIMITS_BYTES` + 1), or undefined when there is none. */
  bytes: Uint8Array | undefined;
}

/**
 * One error for every "no limits file" answer: `loadContextLimits` catches it and uses the
 * built-in limits, so it never escapes, and creating a fresh error (with its stack) for each
 * subagent would cost more than the rest of the read.
 */
const NO_LIMITS_FILE = new FileNotFoundError({ path: CONTEXT_LIMITS_PATH });

/**
 * A workspace in memory for one `generateContext` call: it holds the parent's limits file and
 * whatever `generateContext` writes. Reads return views, not copies; nothing else reads them.
 */
function sageWorkspace(limits: ParentLimits): Workspace {
  const files = new Map<string, Uint8Array>();
  if (limits.bytes !== undefined) files.set(CONTEXT_LIMITS_PATH, limits.bytes);
  return {
    description: "subagent context (memory)",
    async readFile(path: string, options: ReadFileOptions = {}): Promise<FileContent> {
      const key = parseWorkspacePath(path).join("/");
      const bytes = files.get(key);
      if (bytes === undefined) {
        throw key === CONTEXT_LIMITS_PATH ? NO_LIMITS_FILE : new FileNotFoundError({ path });
      }
      const limit = Math.min(options.maxBytes ?? bytes.length, bytes.length);
      return { bytes: bytes.subarray(0, limit), size: bytes.length };
    },
    async writeFile(path: string, data: string | Uint8Array): Promise<void> {
      files.set(
        parseWorkspacePath(path).join("/"),
        typeof data === "string" ? encodeUtf8(data) : data.slice(),
      );
    },
  };
}

/**
 * Reads the parent's limits file once and checks it for every subagent type in use, so that a
 * malformed file throws `ContextLimitsError` before anything starts.
 */
export async function loadParentLimits(
  parent: Workspace,
  types: Iterable<SubagentType>,
): Promise<ParentLimits> {
  let bytes: Uint8Array | undefined;
  try {
    const read = await parent.readFile(CONTEXT_LIMITS_PATH, {
      maxBytes: MAX_CONTEXT_LIMITS_BYTES + 1,
    });
    bytes = read.bytes;
  } catch (error) {
    if (!FileNotFoundError.isInstance(error)) throw error;
  }
  const limits = { bytes };
  const workspace = sageWorkspace(limits);
  for (const type of new Set(types)) await loadContextLimits(workspace, type);
  return limits;
}

/** One subagent's Sage context document, ready to be written into its directory. */
export interface SageContextFile {
  /** `.sage/context/{id}.xml`. */
  path: string;
  /** The well-formed XML, as UTF-8. */
  bytes: Uint8Array;
  /** Says which context items were summarized, replaced with a reference or truncated. */
  warning?: string;
}

/**
 * Runs protocols' `generateContext` against a memory workspace seeded with the parent's limits
 * file: the limits are the parent's, the document is checked as well-formed, and nothing touches
 * the disk until the caller writes the bytes into the subagent's directory. Throws
 * `ContextTooLargeError` when the task cannot fit its type's `max_total`.
 */
export async function renderSageContext(
  limits: ParentLimits,
  request: { taskId: string; subagentType: SubagentType; taskData: TaskData },
  options: { tokenizer?: Tokenizer | undefined; summarize?: Summarizer | undefined },
): Promise<SageContextFile> {
  const workspace = sageWorkspace(limits);
  const generated = await generateContext(request, {
    workspace,
    ...(options.tokenizer === undefined ? {} : { tokenizer: options.tokenizer }),
    ...(options.summarize === undefined ? {} : { summarize: options.summarize }),
  });
  const { bytes } = await workspace.readFile(generated.path);
  const file: SageContextFile = { path: generated.path, bytes };
  if (generated.warning !== undefined) file.warning = `Sage context: ${generated.warning}`;
  return file;
}
