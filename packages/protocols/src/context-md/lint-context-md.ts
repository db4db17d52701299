import { DEFAULT_MAX_CHARS, findSecrets } from "@task-context/core";
import { requireObject, requireString, requireWholeNumber } from "@task-context/core/internal";
import { CONTEXT_MD_SECTIONS } from "./template.ts";

/** One finding of {@link lintContextMd}. */
export interface ContextMdIssue {
  /** Which rule fired. */
  rule: "empty" | "over-limit" | "missing-section" | "placeholder" | "secret";
  /** `error`: fix before delegating; `warning`: recipients will likely miss something; `info`: optional. */
  severity: "error" | "warning" | "info";
  /** What is wrong and what to do. */
  message: string;
  /** 1-based line, when the issue has one. */
  line?: number;
}

/** The result of {@link lintContextMd}. */
export interface ContextMdLintResult {
  /** False when any issue is an error. */
  ok: boolean;
  issues: ContextMdIssue[];
}

/** Options of {@link lintContextMd}. */
export interface LintContextMdOptions {
  /** The delivery limit in UTF-16 units (default 10 000, as the loader's). */
  maxChars?: number;
}

const PLACEHOLDER =
  /<(?:One or two sentences|Term|what it means|Colours, typefaces|Audience, constraints)[^>]*>/;

function mask(secret: string): string {
  return secret.length <= 8 ? "****" : `${secret.slice(0, 4)}…${secret.slice(-2)}`;
}

/**
 * Checks a CONTEXT.md before agents delegate with it: empty, over the delivery limit (it would be
 * truncated), sections missing (what we are building and key terminology are expected; brand
 * guidelines and other details are optional), template placeholders left in, and anything that
 * looks like an API key or private key (every recipient would receive it).
 *
 * @throws {ArgumentError} when `text` is not a string or `maxChars` not a whole number ≥ 1.
 *
 * @example
 * ```ts source="../../examples/lint-context-md.ts"
 * import { CONTEXT_MD_TEMPLATE, lintContextMd } from "@task-context/protocols/context-md";
 *
 * const { ok, issues } = lintContextMd(CONTEXT_MD_TEMPLATE);
 * console.log(ok); // true: the template's placeholders are warnings, not errors
 * for (const issue of issues) console.log(issue.severity, issue.line, issue.message);
 * // "warning" 4 "A template placeholder is still here: replace it with the task's own details or delete the line."
 * // … and the same at lines 7, 10 and 13
 * ```
 */
export function lintContextMd(
  text: string,
  options: LintContextMdOptions = {},
): ContextMdLintResult {
  requireString("text", text);
  requireObject("options", options);
  const { maxChars = DEFAULT_MAX_CHARS } = options;
  requireWholeNumber("maxChars", maxChars, 1);
  const issues: ContextMdIssue[] = [];
  const content = text.startsWith("\uFEFF") ? text.slice(1) : text;

  if (content.trim() === "") {
    issues.push({
      rule: "empty",
      severity: "error",
      message:
        "CONTEXT.md is empty: write what we are building, key terminology and other details (see the template).",
    });
    return { ok: false, issues };
  }
  // Counted as the loader counts what it delivers: UTF-16 units, surrounding whitespace trimmed.
  const length = content.trim().length;
  if (length > maxChars) {
    issues.push({
      rule: "over-limit",
      severity: "error",
      message: `CONTEXT.md has ${length} characters; only ${maxChars} are delivered, so the rest would be cut. Shorten it by ${length - maxChars} characters.`,
    });
  }

  const lines = content.split(/\r?\n/);
  const headings = lines
    .map((line, index) => ({ match: /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line), line: index + 1 }))
    .filter((heading) => heading.match !== null)
    .map((heading) => ({
      title: (heading.match?.[1] ?? "").replace(/[*_`]/g, ""),
      line: heading.line,
    }));
  for (const section of CONTEXT_MD_SECTIONS) {
    if (headings.some((heading) => section.headings.test(heading.title))) continue;
    issues.push({
      rule: "missing-section",
      severity: section.required ? "warning" : "info",
      message: section.required
        ? `No "${section.title}" section: recipients need it to understand the task (add "## ${section.title}").`
        : `No "${section.title}" section; add "## ${section.title}" if it is relevant to this task.`,
    });
  }

  lines.forEach((line, index) => {
    if (PLACEHOLDER.test(line)) {
      issues.push({
        rule: "placeholder",
        severity: "warning",
        message:
          "A template placeholder is still here: replace it with the task's own details or delete the line.",
        line: index + 1,
      });
    }
  });
  // The one detector of the packages: what the loader would redact is what lint reports.
  for (const secret of findSecrets(content)) {
    issues.push({
      rule: "secret",
      severity: "error",
      message: `This looks like ${secret.label} (${mask(content.slice(secret.start, secret.end))}). CONTEXT.md is sent to every tool and subagent: remove it and pass credentials another way.`,
      line: secret.line,
    });
  }

  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { ok: !issues.some((issue) => issue.severity === "error"), issues };
}
