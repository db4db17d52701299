import type { ContextView } from "./context-view.ts";

/** The names of {@link CONTEXT_VIEW_PRESETS}. */
export type ContextViewPresetName = "media" | "brief";

/**
 * Views over the sections the system prompt teaches agents to write ("What we are building",
 * "Key terminology", "Visual and brand guidelines", "Other details"), for the recipients that
 * need only some of them:
 *
 * - `media`: what we are building, the key terms and the brand rules — what an image, video or
 *   speech model needs, without the test commands and file conventions.
 * - `brief`: what we are building and the key terms — for a transcription or a document reader.
 *
 * `task-context render --view media` picks one by name.
 */
export const CONTEXT_VIEW_PRESETS: Readonly<Record<ContextViewPresetName, Readonly<ContextView>>> =
  Object.freeze({
    media: Object.freeze({
      name: "media",
      include: Object.freeze([
        "What we are building",
        "Key terminology",
        "Visual and brand guidelines",
      ]),
    }),
    brief: Object.freeze({
      name: "brief",
      include: Object.freeze(["What we are building", "Key terminology"]),
    }),
  });
