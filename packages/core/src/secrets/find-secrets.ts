import { requireString } from "../arguments.ts";
import { secretRules } from "./secret-rules.ts";

/** One secret found by {@link findSecrets}. */
export interface SecretFinding {
  /** Stable kebab-case rule id, e.g. `"openai-api-key"`, `"private-key"`, `"url-password"`. */
  kind: string;
  /** The kind in words, with its article, e.g. `"an OpenAI API key"`. */
  label: string;
  /** 1-based line where the secret starts. */
  line: number;
  /** 1-based column (UTF-16 units) where the secret starts. */
  column: number;
  /** UTF-16 offset where the secret starts in the text. */
  start: number;
  /** UTF-16 offset just after the secret. */
  end: number;
}

/**
 * Finds everything in `text` that looks like a secret: provider API keys (OpenAI, Anthropic,
 * Google, AWS, Azure, GitHub, GitLab, Slack, Stripe, Twilio, SendGrid, npm, Hugging Face, …),
 * JWTs, private keys (the whole PEM block), passwords in URLs and credential assignments such as
 * `password=…` or `api_key: …`. Findings are in text order and never overlap; for an assignment
 * or a URL only the value is the secret, not its name.
 *
 * This is the one detector of the task-context packages: loading with `secrets`, `lintContextMd`
 * and the delivery service all use it. It runs in time linear in the text's length.
 *
 * @throws {ArgumentError} when `text` is not a string.
 *
 * @example
 * ```ts source="../../examples/secrets.ts#findSecrets"
 * const [finding] = findSecrets(`Deploy with\nDATABASE_URL=postgres://app:${password}@db:5432/app`);
 * // { kind: "url-password", label: "a password in a URL", line: 2, column: 29, start: 40, end: 48 }
 * ```
 */
export function findSecrets(text: string): SecretFinding[] {
  requireString("text", text);
  if (text === "") return [];
  const found: Array<Omit<SecretFinding, "line" | "column">> = [];
  for (const rule of secretRules()) {
    rule.pattern.lastIndex = 0;
    for (let match = rule.pattern.exec(text); match !== null; match = rule.pattern.exec(text)) {
      const group = match.findIndex((value, index) => index > 0 && value !== undefined);
      const span = match.indices?.[group === -1 ? 0 : group];
      const value = match[group === -1 ? 0 : group];
      if (span === undefined || value === undefined) continue;
      if (rule.isPlaceholder?.(value)) continue;
      found.push({ kind: rule.kind, label: rule.label, start: span[0], end: span[1] });
    }
  }
  // Earlier first; at the same start the rules' order, most specific first (sort is stable).
  found.sort((a, b) => a.start - b.start);
  const findings: SecretFinding[] = [];
  let line = 1;
  let lineStart = 0;
  let newline = text.indexOf("\n");
  let covered = 0;
  for (const secret of found) {
    if (secret.start < covered) continue;
    covered = secret.end;
    while (newline !== -1 && newline < secret.start) {
      line++;
      lineStart = newline + 1;
      newline = text.indexOf("\n", lineStart);
    }
    const { kind, label, start, end } = secret;
    findings.push({ kind, label, line, column: start - lineStart + 1, start, end });
  }
  return findings;
}
