import type { SecretRedaction } from "../secrets/redact-secrets.ts";
import type { ContextHeading } from "./context-headings.ts";
import type { ContextView } from "./context-view.ts";
import { selectViewRanges } from "./select-context-view.ts";

/** The loader's text after secret redaction: the text, its redactions and where their markers are. */
interface ScreenedText {
  text: string;
  redactions: SecretRedaction[];
  markers: Array<{ start: number; end: number }>;
}

/** A view applied to the loader's redacted text: the view's text, with its own markers. */
export interface ViewedText extends ScreenedText {
  sections: string[];
  unknownHeadings: string[];
  headings: ContextHeading[];
}

/**
 * Applies `view` to the redacted text of CONTEXT.md, before the budgets: the selected sections,
 * trimmed, with the redactions (and their markers, moved) that fall inside them. A marker never
 * spans a line break, and sections are whole lines, so each marker is wholly in or out.
 */
export function applyContextView(screened: ScreenedText, view: ContextView): ViewedText {
  const { ranges, sections, unknownHeadings, headings } = selectViewRanges(screened.text, view);
  const joined = ranges.map(({ start, end }) => screened.text.slice(start, end)).join("");
  const text = joined.trim();
  const leading = joined.length - joined.trimStart().length;
  const redactions: SecretRedaction[] = [];
  const markers: ScreenedText["markers"] = [];
  let range = 0;
  let offset = 0; // Where ranges[range] starts in `joined`.
  for (const [index, marker] of screened.markers.entries()) {
    while (range < ranges.length && (ranges[range] as { end: number }).end <= marker.start) {
      const { start, end } = ranges[range] as { start: number; end: number };
      offset += end - start;
      range++;
    }
    const current = ranges[range];
    if (current === undefined) break;
    if (marker.start < current.start) continue;
    const shift = offset - current.start - leading;
    markers.push({ start: marker.start + shift, end: marker.end + shift });
    redactions.push(screened.redactions[index] as SecretRedaction);
  }
  return { text, redactions, markers, sections, unknownHeadings, headings };
}
