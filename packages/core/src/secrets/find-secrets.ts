import { requireString } from "../arguments.ts";
import { type SecretRule, scanStops, secretRules } from "./secret-rules.ts";

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
  const { stops, triedAt, ends } = scanner();
  const found: Array<Omit<SecretFinding, "line" | "column"> & { order: number }> = [];
  ends.fill(0);
  stops.lastIndex = 0;
  while (stops.test(text)) {
    const stop = stops.lastIndex - 1;
    for (const { rule, order, pattern, located } of triedAt[text.charCodeAt(stop)] ?? []) {
      // The rule's next match, as its own global scan would find it: from where its previous match
      // ended, starting at most `before` characters before this stop (see `scanner`).
      let from = Math.max(ends[order] as number, stop - rule.anchor.before);
      while (from <= stop) {
        pattern.lastIndex = from;
        const match = pattern.exec(text);
        if (match === null) break;
        const group = match.findIndex((value, index) => index > 1 && value !== undefined);
        const value = match[group === -1 ? 1 : group];
        if (value !== undefined && !rule.isPlaceholder?.(value)) {
          located.lastIndex = from;
          const span = located.exec(text)?.indices?.[group === -1 ? 1 : group];
          if (span !== undefined) {
            found.push({ kind: rule.kind, label: rule.label, start: span[0], end: span[1], order });
          }
        }
        from = ends[order] = pattern.lastIndex;
      }
    }
  }
  // Earlier first; at the same start the rules' order, most specific first.
  found.sort((a, b) => a.start - b.start || a.order - b.order);
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

interface Scanner {
  /** {@link scanStops}. */
  stops: RegExp;
  /**
   * By character code: the rules anchored at that character, each with its sticky pattern, and the
   * same with indices (`d`), run again only on a match that is not a placeholder: indices cost
   * more than the match itself, and most matches at a stop are placeholders (`API_KEY: ${API_KEY}`).
   */
  triedAt: Array<
    Array<{ rule: SecretRule; order: number; pattern: RegExp; located: RegExp }> | undefined
  >;
  /** By rule: where its last match ended in the text being scanned. */
  ends: Int32Array;
}

let built: Scanner | undefined;

/**
 * Why the scan is built this way: one regular expression per rule, each run over the whole text,
 * cost 28 passes (about 50 µs for 10 000 characters, more than the load itself). Instead one pass
 * of {@link scanStops} finds the few places where a secret can be (an anchor character that passes
 * a quick check: `sk-`, `ghp_`, `AKIA`, `eyJ`, `://` with an `@`, `key =`, …), and only there are
 * the rules of that character tried, each with a sticky copy of its pattern that may start up to
 * `anchor.before` characters earlier (`[\s\S]{0,before}?(pattern)`; group 1 is the whole match).
 * A rule's matches are exactly those of its own global scan: every match holds a stop within
 * `before` characters of its start, stops come in text order, and a rule is never tried before
 * the end of its previous match. Built on first use, like the rules.
 */
function scanner(): Scanner {
  if (built !== undefined) return built;
  const rules = secretRules();
  const triedAt: Scanner["triedAt"] = [];
  for (const [order, rule] of rules.entries()) {
    const { before, characters } = rule.anchor;
    const source = `${before === 0 ? "" : `[\\s\\S]{0,${before}}?`}(${rule.pattern.source})`;
    const flags = rule.pattern.flags.replace("g", "y");
    const pattern = new RegExp(source, flags.replace("d", ""));
    const located = new RegExp(source, flags);
    for (const character of characters) {
      const code = character.charCodeAt(0);
      triedAt[code] = [...(triedAt[code] ?? []), { rule, order, pattern, located }];
    }
  }
  built = { stops: scanStops(), triedAt, ends: new Int32Array(rules.length) };
  return built;
}
