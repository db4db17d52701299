import { type RedactedTextWithMarkers, redactSecretsWithMarkers } from "./redact-secrets.ts";
import type { SecretPolicy } from "./secret-policy.ts";

/** The loaded text with its secrets redacted, before the length cut. */
export interface ScreenedText extends RedactedTextWithMarkers {
  /** UTF-16 units left off the end of a partly read file: a secret there could be cut in half. */
  dropped: number;
}

/** How far back a partly read file's last token is looked for (longer runs are kept whole). */
const LAST_TOKEN_LIMIT = 8_192;

/**
 * Redacts the secrets of the text the loader read, per `policy`. Of a file read only in part, the
 * last run of non-whitespace is left off first: a secret cut at the end of the read could no
 * longer be recognised. `firstLine` is the file's line where `text` starts.
 */
export function screenContext(
  text: string,
  { complete, policy, firstLine }: { complete: boolean; policy: SecretPolicy; firstLine: number },
): ScreenedText {
  if (policy === "allow") return { text, redactions: [], markers: [], dropped: 0 };
  let end = text.length;
  if (!complete) {
    const floor = Math.max(0, text.length - LAST_TOKEN_LIMIT);
    let index = text.length - 1;
    while (index >= floor && !/\s/.test(text[index] as string)) index--;
    if (index >= floor && index > 0) end = index;
  }
  const screened = redactSecretsWithMarkers(
    end === text.length ? text : text.slice(0, end),
    firstLine,
  );
  return { ...screened, dropped: text.length - end };
}

/** `cut`, moved back to the start of a redaction marker when it falls inside one. */
export function cutOutsideMarkers(
  cut: number,
  markers: ReadonlyArray<{ start: number; end: number }>,
): number {
  for (const marker of markers) {
    if (marker.start >= cut) break;
    if (cut < marker.end) return marker.start;
  }
  return cut;
}
