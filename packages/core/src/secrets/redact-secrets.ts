import { findSecrets } from "./find-secrets.ts";

/** A secret that was redacted: its kind and the 1-based line where it was. */
export interface SecretRedaction {
  /** Stable kebab-case rule id, e.g. `"openai-api-key"`, `"jwt"`, `"private-key"`, `"url-password"`. */
  kind: string;
  /** 1-based line of the original text where the secret started. */
  line: number;
}

/** The result of {@link redactSecrets}. */
export interface RedactedText {
  /** The text with each secret replaced by `[redacted: <kind>]`. */
  text: string;
  /** What was replaced, in text order; empty when nothing was. */
  redactions: SecretRedaction[];
}

/** {@link RedactedText} with where each marker sits in the redacted text (UTF-16 offsets). */
export interface RedactedTextWithMarkers extends RedactedText {
  markers: Array<{ start: number; end: number }>;
}

/** The marker that replaces a secret of `kind`. */
export function redactionMarker(kind: string): string {
  return `[redacted: ${kind}]`;
}

interface Redacted {
  source: string;
  text: string;
  redactions: SecretRedaction[];
  markers: Array<{ start: number; end: number }>;
}

/**
 * The last few texts redacted, newest last. Every tool call loads the same CONTEXT.md again; a
 * string comparison (lengths first, then the characters) is far cheaper than a scan.
 */
const recent: Redacted[] = [];
const RECENT_LIMIT = 4;

function redact(text: string): Redacted {
  const known = recent.find((entry) => entry.source === text);
  if (known !== undefined) return known;
  const findings = findSecrets(text);
  const parts: string[] = [];
  const markers: Array<{ start: number; end: number }> = [];
  let length = 0;
  let previous = 0;
  for (const finding of findings) {
    const before = text.slice(previous, finding.start);
    const marker = redactionMarker(finding.kind);
    parts.push(before, marker);
    length += before.length;
    markers.push({ start: length, end: length + marker.length });
    length += marker.length;
    previous = finding.end;
  }
  parts.push(text.slice(previous));
  const redacted: Redacted = {
    source: text,
    text: findings.length === 0 ? text : parts.join(""),
    redactions: findings.map(({ kind, line }) => ({ kind, line })),
    markers,
  };
  recent.push(redacted);
  if (recent.length > RECENT_LIMIT) recent.shift();
  return redacted;
}

/**
 * {@link redactSecrets}, also telling where each marker is (for the loader's length cut);
 * `firstLine` is the line of a longer file where `text` starts.
 */
export function redactSecretsWithMarkers(text: string, firstLine = 1): RedactedTextWithMarkers {
  const redacted = redact(text);
  return {
    text: redacted.text,
    redactions: redacted.redactions.map(({ kind, line }) => ({ kind, line: line + firstLine - 1 })),
    markers: redacted.markers.map(({ start, end }) => ({ start, end })),
  };
}

/**
 * Replaces everything {@link findSecrets} finds in `text` with `[redacted: <kind>]` and says what
 * it replaced. For a credential assignment or a URL only the value goes (`password=[redacted:
 * password-assignment]`), so a reader still sees what was there.
 *
 * @throws {ArgumentError} when `text` is not a string.
 *
 * @example
 * ```ts source="../../examples/secrets.ts#redactSecrets"
 * const { text, redactions } = redactSecrets(
 *   `Deploy with\nDATABASE_URL=postgres://app:${password}@db:5432/app`,
 * );
 * // text: "Deploy with\nDATABASE_URL=postgres://app:[redacted: url-password]@db:5432/app"
 * // redactions: [{ kind: "url-password", line: 2 }]
 * ```
 */
export function redactSecrets(text: string): RedactedText {
  const { text: redacted, redactions } = redactSecretsWithMarkers(text);
  return { text: redacted, redactions };
}
