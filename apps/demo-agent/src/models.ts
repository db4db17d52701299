// Which models the demo talks to: the stand-in on loopback (offline, the default) or real ones
// when OPENAI_API_KEY or OPENAI_BASE_URL is set. Either way the AI SDK's OpenAI provider makes the
// calls; only the base URL and the key differ. Every exchange is recorded as it went over the wire.
import { createOpenAI } from "@ai-sdk/openai";
import type { ImageModel, LanguageModel } from "ai";
import { STAND_IN_MODELS, startStandInServer } from "./stand-in/stand-in-server.ts";

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

/** The models of one demo run. */
export interface DemoModels {
  settings: ModelSettings;
  chat: LanguageModel;
  image: ImageModel;
  /** Every exchange so far, in order. */
  exchanges: ModelExchange[];
  close(): Promise<void>;
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

/** The settings from the environment: real models with a key or base URL, unless `standIn`. */
export function settingsFromEnvironment(
  environment: NodeJS.ProcessEnv,
  standInBaseURL: string | undefined,
): ModelSettings {
  if (standInBaseURL !== undefined) {
    return {
      kind: "stand-in",
      baseURL: standInBaseURL,
      apiKey: "stand-in",
      chatModel: STAND_IN_MODELS.chat,
      imageModel: STAND_IN_MODELS.image,
    };
  }
  return {
    kind: "real",
    baseURL: environment.OPENAI_BASE_URL || undefined,
    apiKey: environment.OPENAI_API_KEY || "none",
    chatModel: environment.TASK_CONTEXT_DEMO_CHAT_MODEL || "gpt-5-mini",
    imageModel: environment.TASK_CONTEXT_DEMO_IMAGE_MODEL || "gpt-image-1",
  };
}

/** True when the environment names a real provider (a key or a base URL). */
export function hasRealProvider(environment: NodeJS.ProcessEnv): boolean {
  return Boolean(environment.OPENAI_API_KEY || environment.OPENAI_BASE_URL);
}

/** The AI SDK provider for `settings`, recording into `exchanges`. */
export function providerFor(settings: ModelSettings, exchanges: ModelExchange[]) {
  return createOpenAI({
    apiKey: settings.apiKey,
    ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
    fetch: recordingFetch(exchanges),
  });
}

/**
 * Starts the demo's models: the stand-in server unless `real` (then the provider from the
 * environment). Chat goes to `/chat/completions`, images to `/images/generations`.
 */
export async function startModels(
  environment: NodeJS.ProcessEnv,
  real: boolean,
): Promise<DemoModels> {
  const standIn = real ? undefined : await startStandInServer();
  const settings = settingsFromEnvironment(environment, standIn?.baseURL);
  const exchanges: ModelExchange[] = [];
  const provider = providerFor(settings, exchanges);
  return {
    settings,
    chat: provider.chat(settings.chatModel),
    image: provider.image(settings.imageModel),
    exchanges,
    close: async () => standIn?.close(),
  };
}
