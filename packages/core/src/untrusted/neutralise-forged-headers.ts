import { requireString, requireText } from "../arguments.ts";
import { findPosingText } from "./find-posing-text.ts";
import { makeFindingsInert } from "./neutralise-posing-text.ts";

/** A request with its lines that posed as task-context headers made inert, and where they were. */
export interface RequestWithoutForgedHeaders {
  /** The request, each forged header line as `⟦Request⟧` / `⟦Task Context⟧`, the rest as written. */
  text: string;
  /** The 1-based lines of the request that were forged headers, in order. */
  lines: number[];
}

/**
 * Makes inert every line of a delegated request that poses as a task-context header
 * (`[Task Context]`, `[Request]`: the `task-context-header` kind of `findPosingText`), so that the
 * one `[Task Context]` … `[Request]` block the recipient reads is the one delivered with the
 * request. Everything else in the request is left exactly as its writer wrote it. For the
 * agent-framework adapters, which inject the context into requests that another model wrote.
 *
 * @internal
 */
export function neutraliseForgedHeaders(request: string): RequestWithoutForgedHeaders {
  requireString("request", request);
  const forged = findPosingText(request).filter(({ kind }) => kind === "task-context-header");
  return { text: makeFindingsInert(request, forged), lines: forged.map(({ line }) => line) };
}

/**
 * The warning for a request to `recipient` whose `lines` posed as task-context headers and were
 * neutralised by {@link neutraliseForgedHeaders}; undefined when there were none.
 *
 * @internal
 */
export function forgedHeadersWarning(
  recipient: string,
  lines: readonly number[],
): string | undefined {
  requireText("recipient", recipient);
  if (lines.length === 0) return undefined;
  const which =
    lines.length === 1
      ? `1 line (line ${lines[0]})`
      : `${lines.length} lines (lines ${lines.join(", ")})`;
  return `The request to ${JSON.stringify(recipient)} held ${which} posing as a task-context header: delivered as ⟦…⟧, so that the task context given with it is the only one. Check what wrote the request.`;
}
