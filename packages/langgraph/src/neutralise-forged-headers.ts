import { findPosingText, neutralisePosingText } from "@task-context/core";

/** A request with the lines that posed as task-context headers made inert, and where they were. */
export interface RequestWithoutForgedHeaders {
  text: string;
  /** The 1-based lines of the request that were exactly `[Task Context]` or `[Request]`. */
  lines: number[];
}

/**
 * Makes inert every line of `request` that poses as a task-context header (`[Task Context]`,
 * `[Request]`, in any case: core's `task-context-header` kind), as `⟦Request⟧`, so that the one
 * `[Task Context]` … `[Request]` block a recipient reads is the one delivered with it. The rest of
 * the request, other posing kinds included, is left exactly as written: it is the caller's own.
 */
export function neutraliseForgedHeaders(request: string): RequestWithoutForgedHeaders {
  const forged = findPosingText(request).filter(({ kind }) => kind === "task-context-header");
  let text = request;
  for (const { start, end } of [...forged].reverse()) {
    text = `${text.slice(0, start)}${neutralisePosingText(text.slice(start, end)).text}${text.slice(end)}`;
  }
  return { text, lines: forged.map(({ line }) => line) };
}
