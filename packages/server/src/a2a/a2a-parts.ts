import type { Part } from "@a2a-js/sdk";

/**
 * An A2A text part: `text` with its media type (default `text/markdown`). As an artifact's part,
 * the service stores the text with that media type.
 */
export function textPart(text: string, mediaType = "text/markdown"): Part {
  return { content: { $case: "text", value: text }, mediaType, filename: "", metadata: undefined };
}

/**
 * An A2A data part: `value` as JSON. As an artifact's part, a review's
 * `{ verdict, summary, criteria }`, or `{ media_type, content, title? }` for an artifact.
 */
export function dataPart(value: unknown): Part {
  return {
    content: { $case: "data", value },
    mediaType: "application/json",
    filename: "",
    metadata: undefined,
  };
}
