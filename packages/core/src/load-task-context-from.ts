import { sha256Hex } from "#sha256";
import { describeArgument } from "./arguments.ts";
import { CONTEXT_FILENAME } from "./constants.ts";
import { ArgumentError } from "./errors/argument-error.ts";
import { FileNotFoundError } from "./errors/file-not-found-error.ts";
import { NotRegularFileError } from "./errors/not-regular-file-error.ts";
import { SecretInContextError } from "./errors/secret-in-context-error.ts";
import {
  TaskContextMissingError,
  type TaskContextMissingReason,
} from "./errors/task-context-missing-error.ts";
import { fitTokenBudget } from "./fit-token-budget.ts";
import { graphemeBoundaryAtOrBefore } from "./grapheme.ts";
import { requireLoadOptions } from "./load-options.ts";
import { cutOutsideMarkers, screenContext } from "./secrets/screen-context.ts";
import { redactionWarning } from "./secrets/secret-policy.ts";
import type { LoadTaskContextOptions, TaskContext } from "./task-context.ts";
import { decodeUtf8 } from "./utf8.ts";
import type { Workspace } from "./workspace.ts";

/** Throws unless `value` looks like a {@link Workspace}: an object with `readFile`. */
export function requireWorkspace(argument: string, value: unknown): Workspace {
  if (
    typeof value !== "object" ||
    value === null ||
    typeof (value as Partial<Workspace>).readFile !== "function"
  ) {
    throw new ArgumentError({
      argument,
      message: `expected a Workspace (memoryWorkspace(), nodeWorkspace(root) or an object with readFile and writeFile), got ${describeArgument(value)}.`,
    });
  }
  return value as Workspace;
}

/**
 * No context to deliver. Required → the guiding error. Optional → no context; and when a
 * CONTEXT.md is there but cannot be used (not a regular file, or cut to nothing by the limits), a
 * warning that says so: the caller asked for its context, and it must not vanish silently.
 */
async function notFound(
  reason: TaskContextMissingReason,
  required: boolean,
  cause?: unknown,
): Promise<TaskContext> {
  const error = new TaskContextMissingError({ reason, cause });
  if (required) throw error;
  const context: TaskContext = {
    content: "",
    truncated: false,
    originalLength: 0,
    originalLengthIsExact: true,
    originalBytes: 0,
    sha256: await sha256Hex(""),
    found: false,
  };
  if (reason === "not-a-regular-file" || reason === "nothing-fits") {
    context.warning = `No task context was delivered: ${error.message.split("\n")[1]}`;
  }
  return context;
}

/** {@link loadTaskContext} for a {@link Workspace}; shared by every runtime's entry point. */
export async function loadTaskContextFrom(
  workspace: Workspace,
  options: LoadTaskContextOptions = {},
): Promise<TaskContext> {
  requireWorkspace("workspace", workspace);
  const { maxChars, maxTokens, tokenizer, required, secrets } = requireLoadOptions(options);

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
  const decoded = decodeUtf8(read.bytes, complete);
  // What is delivered is trimmed of surrounding whitespace (the reference loader strips it), so
  // the injected prompt has exactly one blank line before [Request]. Of a file read in part, only
  // the start is known.
  const text = complete ? decoded.text.trim() : decoded.text.trimStart();
  if (complete && text === "") return notFound("empty", required);

  // Secrets are redacted before the length cut, so that a cut never leaves half a secret; lines
  // are the file's (the trimmed start may have held line feeds).
  const leading = decoded.text.length - decoded.text.trimStart().length;
  const firstLine = decoded.text.slice(0, leading).split("\n").length;
  const screened = screenContext(text, { complete, policy: secrets, firstLine });
  const full = screened.text;
  const originalLength = complete
    ? full.length
    : full.length + screened.dropped + (read.size - read.bytes.length);
  let content =
    full.length > maxChars
      ? full.slice(
          0,
          cutOutsideMarkers(graphemeBoundaryAtOrBefore(full, maxChars), screened.markers),
        )
      : full;
  if (maxTokens !== undefined && tokenizer !== undefined) {
    content = await fitTokenBudget(content, maxTokens, tokenizer);
    content = content.slice(0, cutOutsideMarkers(content.length, screened.markers));
  }
  // A cut can end in whitespace; nothing left means nothing of the file fits the limits.
  content = content.trimEnd();
  if (content === "") return notFound("nothing-fits", required);
  const truncated = !complete || content.length < full.length;
  const delivered = screened.markers.filter((marker) => marker.end <= content.length).length;
  const redactions = screened.redactions.slice(0, delivered);
  if (secrets === "refuse" && redactions.length > 0) throw new SecretInContextError({ redactions });

  const warnings: string[] = [];
  if (decoded.replaced) {
    warnings.push(
      "CONTEXT.md is not valid UTF-8: invalid bytes were replaced with U+FFFD. Save it as UTF-8.",
    );
  }
  if (redactions.length > 0) warnings.push(redactionWarning(CONTEXT_FILENAME, redactions));
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
  if (redactions.length > 0) context.redactions = redactions;
  if (warnings.length > 0) context.warning = warnings.join(" ");
  return context;
}
