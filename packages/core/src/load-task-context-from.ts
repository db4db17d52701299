import { sha256Hex } from "#sha256";
import { CONTEXT_FILENAME, DEFAULT_MAX_CHARS } from "./constants.ts";
import { FileNotFoundError } from "./errors/file-not-found-error.ts";
import { InvalidArgumentError } from "./errors/invalid-argument-error.ts";
import { NotRegularFileError } from "./errors/not-regular-file-error.ts";
import {
  TaskContextMissingError,
  type TaskContextMissingReason,
} from "./errors/task-context-missing-error.ts";
import { graphemeBoundaryAtOrBefore } from "./grapheme.ts";
import type { LoadTaskContextOptions, TaskContext } from "./task-context.ts";
import { decodeUtf8 } from "./utf8.ts";
import type { Workspace } from "./workspace.ts";

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError(name, `expected a whole number ≥ 1, got ${String(value)}.`);
  }
  return value;
}

async function notFound(reason: TaskContextMissingReason, required: boolean, cause?: unknown) {
  if (required)
    throw new TaskContextMissingError(reason, cause === undefined ? undefined : { cause });
  return {
    content: "",
    truncated: false,
    originalLength: 0,
    originalLengthIsExact: true,
    originalBytes: 0,
    sha256: await sha256Hex(""),
    found: false,
  } satisfies TaskContext;
}

/** {@link loadTaskContext} for a {@link Workspace}; shared by every runtime's entry point. */
export async function loadTaskContextFrom(
  workspace: Workspace,
  options: LoadTaskContextOptions = {},
): Promise<TaskContext> {
  const maxChars = positiveInteger("maxChars", options.maxChars ?? DEFAULT_MAX_CHARS);
  const { tokenizer, maxTokens } = options;
  if (maxTokens !== undefined) {
    positiveInteger("maxTokens", maxTokens);
    if (tokenizer === undefined) {
      throw new InvalidArgumentError(
        "maxTokens",
        'a token budget needs a tokenizer: pass `tokenizer: approximateTokenizer` or `o200kTokenizer` from "@task-context/core/o200k".',
      );
    }
  }
  const required = options.required ?? true;

  // UTF-8 needs at most 3 bytes per UTF-16 unit; 4 × maxChars + 4 also covers a BOM and the
  // look-ahead that tells where the grapheme cluster at the cut ends.
  let read: Awaited<ReturnType<Workspace["readFile"]>>;
  try {
    read = await workspace.readFile(CONTEXT_FILENAME, { maxBytes: 4 * maxChars + 4 });
  } catch (error) {
    if (FileNotFoundError.isInstance(error)) return notFound("not-found", required, error);
    if (NotRegularFileError.isInstance(error))
      return notFound("not-a-regular-file", required, error);
    throw error;
  }

  const complete = read.bytes.length >= read.size;
  const { text, replaced } = decodeUtf8(read.bytes, complete);
  if (text.trim() === "") return notFound("empty", required);

  const originalLength = complete ? text.length : text.length + (read.size - read.bytes.length);
  let content =
    text.length > maxChars ? text.slice(0, graphemeBoundaryAtOrBefore(text, maxChars)) : text;
  if (maxTokens !== undefined && tokenizer !== undefined && tokenizer.count(content) > maxTokens) {
    content = tokenizer.truncate(content, maxTokens);
  }
  const truncated = content.length < originalLength;

  const warnings: string[] = [];
  if (replaced) {
    warnings.push(
      "CONTEXT.md is not valid UTF-8: invalid bytes were replaced with U+FFFD. Save it as UTF-8.",
    );
  }
  if (truncated) {
    const limit =
      maxTokens === undefined || tokenizer === undefined
        ? `limit ${maxChars}`
        : `limit ${maxChars} characters and ${maxTokens} ${tokenizer.name} tokens`;
    const from = complete ? String(originalLength) : `about ${originalLength}`;
    warnings.push(
      `CONTEXT.md was truncated from ${from} to ${content.length} characters (${limit}). Consider shortening it.`,
    );
  }

  const context: TaskContext = {
    content,
    truncated,
    originalLength,
    originalLengthIsExact: complete,
    originalBytes: read.size,
    sha256: await sha256Hex(content),
    found: true,
  };
  if (warnings.length > 0) context.warning = warnings.join(" ");
  return context;
}
