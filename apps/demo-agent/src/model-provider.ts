// The AI SDK's OpenAI provider for the demo's model settings, recording every exchange as it went
// over the wire. Child-process subagents use it too, so it depends on nothing of the demo's own.
import { createOpenAI } from "@ai-sdk/openai";

/** One HTTP exchange with the model provider, as it went over the wire. */
export interface ModelExchange {
  /** The URL's path, e.g. `/v1/chat/completions`. */
  path: string;
  status: number;
  /** The JSON request body, parsed. */
  request: unknown;
  /** The JSON response body, parsed (images' base64 shortened). */
  response: unknown;
}

/** Where the models are and how to reach them: also handed to child-process subagents. */
export interface ModelSettings {
  /** `"stand-in"`: the local stand-in; `"real"`: a provider from the environment. */
  kind: "stand-in" | "real";
  /** The OpenAI-style base URL; undefined: the provider's default. */
  baseURL: string | undefined;
  apiKey: string;
  chatModel: string;
  imageModel: string;
}

/** Base64 strings longer than this are shortened in the recorded responses. */
const MAX_RECORDED_BASE64 = 64;

function shortenImages(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shortenImages);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [
      key,
      key === "b64_json" && typeof entry === "string" && entry.length > MAX_RECORDED_BASE64
        ? `${entry.slice(0, MAX_RECORDED_BASE64)}… (${entry.length} characters)`
        : shortenImages(entry),
    ]),
  );
}

/** A fetch that records each JSON exchange into `exchanges`. */
export function recordingFetch(exchanges: ModelExchange[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const { pathname: path } = new URL(url);
    let request: unknown = null;
    if (typeof init?.body === "string") {
      try {
        request = JSON.parse(init.body);
      } catch {
        request = init.body;
      }
    }
    const text = await response.clone().text();
    let answer: unknown = text;
    try {
      answer = shortenImages(JSON.parse(text));
    } catch {
      // not JSON: kept as text
    }
    exchanges.push({ path, status: response.status, request, response: answer });
    return response;
  };
}

/** The AI SDK provider for `settings`, recording into `exchanges`. */
export function providerFor(settings: ModelSettings, exchanges: ModelExchange[]) {
  return createOpenAI({
    apiKey: settings.apiKey,
    ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
    fetch: recordingFetch(exchanges),
  });
}
