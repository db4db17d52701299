import { injectTaskContext } from "@task-context/core";
import { sha256Hex } from "@task-context/core/internal";
import { CliError } from "../cli-error.ts";
import { isNotInstalled } from "../service/load-node-service.ts";

type MediaTools = typeof import("@task-context/media-tools");

/** What `render --for image-tool --model` shows: the prompt as the media tools would send it. */
export interface ModelFit {
  /** The prompt sent to the model: the request with the context in front, fitted if it had to be. */
  prompt: string;
  /** The SHA-256 of the context sent: the tool result's `contextSha256`. */
  contextSha256: string;
  /** Lines saying which profile applied, and what was cut or left out. */
  notes: string[];
}

/**
 * Loads `@task-context/media-tools` (an optional peer: only `render --model` and the probe use
 * it). Not installed: `CLI_PACKAGE_MISSING`, naming what to install; on Node older than 22 its own
 * `UnsupportedRuntimeError` says what it needs.
 */
async function loadMediaTools(): Promise<MediaTools> {
  try {
    return await import("@task-context/media-tools");
  } catch (error) {
    const missing = ["@task-context/media-tools", "ai"].find((name) => isNotInstalled(error, name));
    if (missing === undefined) throw error;
    throw new CliError({
      code: "CLI_PACKAGE_MISSING",
      message: `render --model fits the context as the media tools do, with ${missing}, which is not installed`,
      hint: "install them beside the CLI: npm install @task-context/media-tools ai (Node 22 or later)",
      cause: error,
    });
  }
}

/**
 * The prompt the media tools send `model` (`provider/model-id`, as the AI SDK and AI Gateway name
 * it) for `request`: the context fitted to the model's profile when it has one and would exceed
 * its limit, else the context whole — exactly what `createMediaTools` does, with its default
 * token count (core's approximate tokenizer).
 */
export async function fitToModel(
  model: string,
  context: { content: string; sha256: string },
  request: string,
): Promise<ModelFit> {
  const media = await loadMediaTools();
  const profile = media.findModelProfile(model, media.MODEL_PROFILES);
  if (profile === undefined) {
    return {
      prompt: injectTaskContext(request, context.content),
      contextSha256: context.sha256,
      notes: [
        `-- no profile for ${model}: the context is sent whole, as for any model the profiles do not name (docs/model-profiles.md says how to add one)`,
      ],
    };
  }
  const fitted = await media.fitContextToProfile({
    context: context.content,
    contextSha256: context.sha256,
    request,
    profile,
  });
  const { promptLimit } = profile;
  const limit =
    promptLimit === undefined
      ? "no prompt limit"
      : `prompt limit ${promptLimit.amount} ${promptLimit.unit} (${promptLimit.overflow})`;
  return {
    prompt: fitted.prompt,
    contextSha256: fitted.fit === undefined ? context.sha256 : await sha256Hex(fitted.context),
    notes: [
      `-- profile ${profile.provider}/${profile.modelId}: ${limit}`,
      fitted.warning === undefined ? "-- fits: the context is sent whole" : `-- ${fitted.warning}`,
    ],
  };
}
