import { loadTaskContext } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import type { Recipient, RecipientRequest } from "./recipient.ts";

/**
 * A number in [0, 1) drawn from a seed (mulberry32): a stand-in that decides with it answers the
 * same trial the same way every time.
 */
export function seededRandom(seed: number): number {
  let state = (seed + 0x6d2b79f5) >>> 0;
  state = Math.imul(state ^ (state >>> 15), state | 1);
  state ^= state + Math.imul(state ^ (state >>> 7), state | 61);
  return ((state ^ (state >>> 14)) >>> 0) / 4_294_967_296;
}

/** The trial's CONTEXT.md as a recipient in production loads it, or undefined without one. */
async function contextOf(request: RecipientRequest): Promise<string | undefined> {
  const context = await loadTaskContext(nodeWorkspace(request.workspace), { required: false });
  return context.content === "" ? undefined : context.content;
}

/** A word's line in the context that defines it (`- **Word**: …`), or undefined. */
function definitionOf(context: string | undefined, word: string): string | undefined {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`^\\s*[-*]\\s+\\*\\*${escaped}\\*\\*\\s*:`, "i");
  return context?.split("\n").find((line) => pattern.test(line));
}

/** Tokens a stand-in reports: one per four characters of what it read and wrote. */
function tokensOf(...texts: Array<string | undefined>): number {
  return Math.ceil(texts.reduce((sum, text) => sum + (text?.length ?? 0), 0) / 4);
}

/** What {@link createVisionStandIn} reads on the "screenshot" and how reliably. */
export interface VisionStandInOptions {
  /** The large text on the image, e.g. `"LUMEN"`. */
  wordmark: string;
  /** What a model that knows only the world makes of it, e.g. `"a hospital or a clinic"`. */
  misreading: string;
  /** Chance it names the product when the context defines the word (default 0.9). */
  withContext?: number;
  /** Chance it still guesses right without a definition (default 0.2). */
  withoutContext?: number;
}

/**
 * A vision model stand-in that reads an image's wordmark: when the trial's CONTEXT.md defines the
 * word (`- **Lumen**: the product. …`) it says what the context says, mostly; without, it takes
 * the word for what the world knows it as, mostly. Deterministic given the trial's seed.
 */
export function createVisionStandIn(options: VisionStandInOptions): Recipient {
  const { wordmark, misreading, withContext = 0.9, withoutContext = 0.2 } = options;
  return async (request) => {
    const context = await contextOf(request);
    const definition = definitionOf(context, wordmark);
    const chance = definition === undefined ? withoutContext : withContext;
    const reads =
      seededRandom(request.seed) < chance
        ? `The large text reads "${wordmark}": the product's wordmark.`
        : `The large text reads "${wordmark}": most likely ${misreading}.`;
    return { text: reads, tokens: tokensOf(context, request.prompt, reads) };
  };
}

/**
 * A transcription stand-in that context hurts: asked to copy text exactly, it follows the
 * context's writing rules instead (`never write "LUMEN"` makes it write "Lumen"), mostly.
 * Without a context it copies the text; `slip` is its chance of a mistake either way (default 0.1).
 */
export function createTranscriptionStandIn(options: { text: string; slip?: number }): Recipient {
  const { text, slip = 0.1 } = options;
  return async (request) => {
    const context = await contextOf(request);
    const forbidden = [...(context ?? "").matchAll(/never write "([^"\n]+)"/gi)].map(
      (match) => match[1] as string,
    );
    let copy = text;
    for (const term of forbidden) {
      copy = copy.replaceAll(term, term.charAt(0) + term.slice(1).toLowerCase());
    }
    if (seededRandom(request.seed) < slip) copy = copy.toLowerCase();
    return { text: copy, tokens: tokensOf(context, request.prompt, copy) };
  };
}
