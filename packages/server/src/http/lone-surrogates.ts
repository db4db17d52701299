// Text the service takes is stored exactly as sent, or refused: a string that is not well-formed
// Unicode (a lone surrogate, which a JSON `\ud800` escape can carry) would be changed on its way
// into storage (SQLite writes U+FFFD in its place), so the run and what it answered would differ.
import type { ValidationIssue } from "@task-context/protocols";
import { toJsonPointer } from "@task-context/protocols/internal";
import { DeliveryError } from "../delivery/delivery-error.ts";

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * `text` with each lone surrogate replaced by U+FFFD, for quoting an outsider's text in a message
 * of the service's own (never for text stored as sent, which is refused instead).
 */
export function wellFormedQuote(text: string): string {
  return text.replace(new RegExp(loneSurrogate.source, "g"), "\uFFFD");
}

/** The most issues listed for one value: a hostile one can hold thousands of such strings. */
const MAX_ISSUES = 50;

/**
 * What is wrong with `text`, e.g. "contains a lone surrogate (U+D800) at index 1", or undefined
 * when it is well-formed Unicode.
 */
export function loneSurrogateProblem(text: string): string | undefined {
  const found = loneSurrogate.exec(text);
  if (found === null) return undefined;
  const unit = found[0].charCodeAt(0).toString(16).toUpperCase();
  return `contains a lone surrogate (U+${unit}) at index ${found.index}`;
}

/** The advice every such issue ends with. */
export const wellFormedAdvice =
  "send well-formed Unicode text (a surrogate only as half of a pair)";

/** Where a value sits: its member's key or index, under its parent (undefined for the root). */
interface Place {
  parent: Place | undefined;
  segment: string | number;
}

function pointerOf(place: Place | undefined): string {
  const path: (string | number)[] = [];
  for (let at = place; at !== undefined; at = at.parent) path.push(at.segment);
  return toJsonPointer(path.reverse());
}

/**
 * An issue per string of `value` (object keys included) that is not well-formed Unicode, at its
 * JSON Pointer (a key's is its member's), in document order. Walks without recursion, so any
 * depth the body limit lets through is fine; at most 50 issues, the last saying how many more.
 */
export function loneSurrogateIssues(value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  let more = 0;
  const report = (place: Place | undefined, message: string) => {
    if (issues.length < MAX_ISSUES - 1) issues.push({ path: pointerOf(place), message });
    else more += 1;
  };
  const pending: { value: unknown; place: Place | undefined }[] = [{ value, place: undefined }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, place } = next;
    if (typeof place?.segment === "string") {
      const problem = loneSurrogateProblem(place.segment);
      if (problem !== undefined) report(place, `The key ${problem}: ${wellFormedAdvice}.`);
    }
    if (typeof current === "string") {
      const problem = loneSurrogateProblem(current);
      if (problem !== undefined) report(place, `The string ${problem}: ${wellFormedAdvice}.`);
    } else if (typeof current === "object" && current !== null) {
      const members: [string | number, unknown][] = Array.isArray(current)
        ? current.map((member, index) => [index, member])
        : Object.entries(current);
      for (let index = members.length - 1; index >= 0; index--) {
        const [segment, member] = members[index] as [string | number, unknown];
        pending.push({ value: member, place: { parent: place, segment } });
      }
    }
  }
  if (more > 0) {
    issues.push({
      path: "",
      message: `${more} more strings are not well-formed Unicode. Fix these first.`,
    });
  }
  return issues;
}

/**
 * Refuses `value` (the `where`: "request body", "tool arguments") with `INVALID_REQUEST` and an
 * issue per string that is not well-formed Unicode; nothing is stored from a refused request.
 */
export function refuseLoneSurrogates(value: unknown, where: string): void {
  const issues = loneSurrogateIssues(value);
  if (issues.length === 0) return;
  throw new DeliveryError({
    code: "INVALID_REQUEST",
    message: `The ${where} holds text that is not well-formed Unicode. Fix the issues listed.`,
    issues,
  });
}
