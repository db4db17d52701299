// Test support for the agent-framework adapters: the CONTEXT.md their tests deliver, what its
// view presets select of it, and the receipt's hash.
import { createHash } from "node:crypto";

const BUILDING = "## What we are building\nLumen, a note-taking app.";
const TERMS = "## Key terminology\n- **Vault**: a folder of notes.";
const BRAND = "## Visual and brand guidelines\nCalm blues, no exclamation marks.";

/** A CONTEXT.md with the headings the view presets name, and one they leave out. */
export const CONTEXT = [
  "# Task context",
  BUILDING,
  TERMS,
  BRAND,
  "## Other details\nRun pnpm test before a commit.",
].join("\n\n");

/** What the view `CONTEXT_VIEW_PRESETS.brief` delivers of {@link CONTEXT}. */
export const BRIEF_VIEW = [BUILDING, TERMS].join("\n\n");

/** What the view `CONTEXT_VIEW_PRESETS.media` delivers of {@link CONTEXT}. */
export const MEDIA_VIEW = [BUILDING, TERMS, BRAND].join("\n\n");

/** The sections of the media view, as a receipt names them. */
export const MEDIA_SECTIONS = [
  "What we are building",
  "Key terminology",
  "Visual and brand guidelines",
];

/** Hex SHA-256 of `text`'s UTF-8 bytes: a receipt. */
export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
