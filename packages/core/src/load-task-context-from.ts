import { sha256Hex } from "#sha256";
import { describeArgument } from "./arguments.ts";
import { CONTEXT_FILENAME } from "./constants.ts";
import { ArgumentError } from "./errors/argument-error.ts";
import { ContextViewEmptyError } from "./errors/context-view-empty-error.ts";
import { FileNotFoundError } from "./errors/file-not-found-error.ts";
import { NotRegularFileError } from "./errors/not-regular-file-error.ts";
import { SecretInContextError } from "./errors/secret-in-context-error.ts";
import {
  TaskContextMissingError,
  type TaskContextMissingReason,
} from "./errors/task-context-missing-error.ts";
import { fitTokenBudget } from "./fit-token-budget.ts";
import { graphemeBoundaryAtOrBefore } from "./grapheme.ts";
import { type CheckedLoadOptions, requireLoadOptions } from "./load-options.ts";
import { cutOutsideMarkers, screenContext } from "./secrets/screen-context.ts";
import { redactionWarning, type SecretPolicy } from "./secrets/secret-policy.ts";
import type { LoadTaskContextOptions, TaskContext } from "./task-context.ts";
import { decodeUtf8 } from "./utf8.ts";
import { applyContextView } from "./views/apply-context-view.ts";
import type { ContextView } from "./views/context-view.ts";
import { unknownHeadingsWarning } from "./views/view-messages.ts";
import type { FileContent, Workspace } from "./workspace.ts";

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

/**
 * With a view, this much of CONTEXT.md is read (or 4 × maxChars + 4 bytes, when that is more):
 * the sections a view selects may lie anywhere in the file, not only in the part that fits.
 */
export const VIEW_READ_BYTES = 1_048_576;

/** {@link loadTaskContext} for a {@link Workspace}; shared by every runtime's entry point. */
export async function loadTaskContextFrom(
  workspace: Workspace,
  options: LoadTaskContextOptions = {},
): Promise<TaskContext> {
  requireWorkspace("workspace", workspace);
  const checked = requireLoadOptions(options);
  const { maxChars, required, view } = checked;

  // UTF-8 needs at most 3 bytes per UTF-16 unit; 4 × maxChars + 4 also covers a BOM and the
  // look-ahead that tells where the grapheme cluster at the cut ends.
  const wholeFileBytes = 4 * maxChars + 4;
  let read: FileContent;
  try {
    read = await workspace.readFile(CONTEXT_FILENAME, {
      maxBytes: view === undefined ? wholeFileBytes : Math.max(wholeFileBytes, VIEW_READ_BYTES),
    });
  } catch (error) {
    if (FileNotFoundError.isInstance(error)) return notFound("not-found", required, error);
    if (NotRegularFileError.isInstance(error))
      return notFound("not-a-regular-file", required, error);
    throw error;
  }
  const prepared = prepare(read, checked.secrets);
  if (prepared === undefined) return notFound("empty", required);
  if (view === undefined) return (await deliver(prepared, checked)).context;

  const { context, sections } = await deliver(prepared, checked, view);
  if (!context.found) return context;
  // The receipt of the whole file: what this load would deliver without the view, from the same
  // bytes (its secrets redacted even under "refuse", which screens as "redact" does: only the
  // view is delivered). A file no longer than what that load reads is prepared once.
  const wholeFile =
    read.bytes.length > wholeFileBytes
      ? prepare({ bytes: read.bytes.subarray(0, wholeFileBytes), size: read.size }, checked.secrets)
      : prepared;
  const whole = await deliver(wholeFile ?? prepared, {
    ...checked,
    required: false,
    secrets: checked.secrets === "refuse" ? "redact" : checked.secrets,
    view: undefined,
  });
  context.view = { name: view.name, sections, fileSha256: whole.context.sha256 };
  return context;
}

/** What was read of CONTEXT.md, decoded, trimmed and with its secrets redacted, before any cut. */
interface PreparedText {
  /** Whether the whole file was read. */
  complete: boolean;
  /** Whether invalid UTF-8 was replaced. */
  replaced: boolean;
  /** The redacted text, where its markers are, and what was left off a partly read file's end. */
  screened: ReturnType<typeof screenContext>;
  /** The file's size in bytes. */
  size: number;
  /** How many of its bytes were read. */
  readBytes: number;
}

/**
 * Decodes, trims and screens what was read of CONTEXT.md; undefined when a whole file holds only
 * whitespace. What is delivered is trimmed of surrounding whitespace (the reference loader strips
 * it), so the injected prompt has exactly one blank line before [Request]; of a file read in part,
 * only the start is known. Secrets are redacted before any cut, so that a cut never leaves half a
 * secret; lines are the file's (the trimmed start may have held line feeds).
 */
function prepare(read: FileContent, secrets: SecretPolicy): PreparedText | undefined {
  const complete = read.bytes.length >= read.size;
  const decoded = decodeUtf8(read.bytes, complete);
  const text = complete ? decoded.text.trim() : decoded.text.trimStart();
  if (complete && text === "") return undefined;
  const leading = decoded.text.length - decoded.text.trimStart().length;
  const firstLine = decoded.text.slice(0, leading).split("\n").length;
  return {
    complete,
    replaced: decoded.replaced,
    screened: screenContext(text, { complete, policy: secrets, firstLine }),
    size: read.size,
    readBytes: read.bytes.length,
  };
}

/**
 * Delivers prepared CONTEXT.md text: the view's sections selected (with a view) from the whole
 * redacted text, then bounded by the limits (the view's own, when smaller), so that they cut what
 * is delivered.
 */
async function deliver(
  prepared: PreparedText,
  options: CheckedLoadOptions,
  view?: ContextView,
): Promise<{ context: TaskContext; sections: string[] }> {
  const { required, secrets, tokenizer } = options;
  const { complete, screened } = prepared;
  const maxChars = Math.min(options.maxChars, view?.maxChars ?? options.maxChars);
  const maxTokens =
    view?.maxTokens === undefined
      ? options.maxTokens
      : Math.min(view.maxTokens, options.maxTokens ?? view.maxTokens);

  const viewed = view === undefined ? undefined : applyContextView(screened, view);
  if (viewed !== undefined && view !== undefined && viewed.text === "")
    throw new ContextViewEmptyError({ view, headings: viewed.headings });
  const full = viewed?.text ?? screened.text;
  const markers = viewed?.markers ?? screened.markers;
  const originalLength = complete
    ? full.length
    : full.length + screened.dropped + (prepared.size - prepared.readBytes);
  let content =
    full.length > maxChars
      ? full.slice(0, cutOutsideMarkers(graphemeBoundaryAtOrBefore(full, maxChars), markers))
      : full;
  if (maxTokens !== undefined && tokenizer !== undefined) {
    content = await fitTokenBudget(content, maxTokens, tokenizer);
    content = content.slice(0, cutOutsideMarkers(content.length, markers));
  }
  // A cut can end in whitespace; nothing left means nothing of the file fits the limits.
  content = content.trimEnd();
  if (content === "") return { context: await notFound("nothing-fits", required), sections: [] };
  const truncated = !complete || content.length < full.length;
  const delivered = markers.filter((marker) => marker.end <= content.length).length;
  const redactions = (viewed?.redactions ?? screened.redactions).slice(0, delivered);
  if (secrets === "refuse" && redactions.length > 0) throw new SecretInContextError({ redactions });

  const warnings: string[] = [];
  if (prepared.replaced) {
    warnings.push(
      "CONTEXT.md is not valid UTF-8: invalid bytes were replaced with U+FFFD. Save it as UTF-8.",
    );
  }
  if (redactions.length > 0) warnings.push(redactionWarning(CONTEXT_FILENAME, redactions));
  if (viewed !== undefined && view !== undefined && viewed.unknownHeadings.length > 0)
    warnings.push(unknownHeadingsWarning(view, viewed.unknownHeadings, viewed.headings));
  if (truncated) {
    const limit =
      maxTokens === undefined || tokenizer === undefined
        ? `limit ${maxChars}`
        : `limit ${maxChars} characters and ${maxTokens} ${tokenizer.name} tokens`;
    const from = complete ? String(originalLength) : `about ${originalLength}`;
    const what =
      view === undefined ? "CONTEXT.md" : `CONTEXT.md's view ${JSON.stringify(view.name)}`;
    const advice =
      view === undefined ? "Consider shortening it." : "Consider shortening its sections.";
    warnings.push(
      `${what} was truncated from ${from} to ${content.length} characters (${limit}). ${advice}`,
    );
  }

  const context: TaskContext = {
    content,
    truncated,
    originalLength,
    originalLengthIsExact: complete,
    originalBytes: prepared.size,
    sha256: await sha256Hex(content),
    found: true,
  };
  if (redactions.length > 0) context.redactions = redactions;
  if (warnings.length > 0) context.warning = warnings.join(" ");
  return { context, sections: viewed?.sections ?? [] };
}
