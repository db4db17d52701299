// Which models the demo talks to: the stand-in on loopback (offline, the default) or real ones
// when OPENAI_API_KEY or OPENAI_BASE_URL is set. Either way the AI SDK's OpenAI provider makes the
// calls; only the base URL and the key differ. Every exchange is recorded as it went over the wire.
import type { ImageModel, LanguageModel } from "ai";
import { type ModelExchange, type ModelSettings, providerFor } from "./model-provider.ts";
import { STAND_IN_MODELS, startStandInServer } from "./stand-in/stand-in-server.ts";

/** The models of one demo run. */
export interface DemoModels {
  settings: ModelSettings;
  chat: LanguageModel;
  image: ImageModel;
  /** Every exchange so far, in order. */
  exchanges: ModelExchange[];
  close(): Promise<void>;
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

/**
 * Starts the demo's models: the stand-in server unless `real` (then the provider from the
 * environment). Chat goes to `/chat/completions`, images to `/images/generations`. With
 * `background`, the stand-in does not keep the process alive (see {@link startStandInServer}).
 */
export async function startModels(
  environment: NodeJS.ProcessEnv,
  real: boolean,
  options: { background?: boolean } = {},
): Promise<DemoModels> {
  const standIn = real ? undefined : await startStandInServer(options);
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
