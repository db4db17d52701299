import type { ModelProfile } from "./model-profile.ts";

/**
 * The profile of an AI SDK model (or an AI Gateway model id, `"openai/dall-e-3"`): the first of
 * `profiles` whose provider is the first part of the model's `provider` (`"openai"` for
 * `"openai.image"`) and whose model id is the model's. Undefined for a model no profile names.
 */
export function findModelProfile(
  model: unknown,
  profiles: readonly ModelProfile[],
): ModelProfile | undefined {
  let provider: unknown;
  let modelId: unknown;
  if (typeof model === "string") {
    const slash = model.indexOf("/");
    if (slash === -1) return undefined;
    provider = model.slice(0, slash);
    modelId = model.slice(slash + 1);
  } else if (typeof model === "object" && model !== null) {
    ({ provider, modelId } = model as { provider?: unknown; modelId?: unknown });
    if (typeof provider === "string") provider = provider.split(".")[0];
  }
  if (typeof provider !== "string" || typeof modelId !== "string") return undefined;
  return profiles.find((profile) => profile.provider === provider && profile.modelId === modelId);
}
