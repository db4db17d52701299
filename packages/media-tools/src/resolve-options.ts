import { ArgumentError, type Workspace } from "@task-context/core";
import {
  describeArgument,
  MAX_TIMER_MS,
  parseWorkspacePath,
  requireContextView,
  requireLoadOptions,
  requireObject,
  requireText,
  requireWholeNumber,
  requireWorkspace,
} from "@task-context/core/internal";
import type { MediaKind } from "./detect-media-type.ts";
import { guardWorkspace } from "./guard-workspace.ts";
import type { MediaRuntime } from "./media-runtime.ts";
import {
  type CreateMediaToolsOptions,
  DEFAULT_MEDIA_LIMITS,
  DEFAULT_TIMEOUTS_MS,
  type MediaModels,
  type MediaToolName,
  type UnderlyingToolName,
} from "./media-tools-options.ts";
import { requireModelProfiles } from "./model-profile.ts";
import { MODEL_PROFILES } from "./model-profiles.ts";

type ModelName = keyof MediaModels;

/** What each model option must look like besides a gateway id: a description and its methods. */
const MODEL_SHAPES: Record<ModelName, { what: string; methods: readonly (readonly string[])[] }> = {
  understanding: {
    what: 'a language model (e.g. openai("gpt-5-mini"))',
    methods: [["doGenerate", "doStream"]],
  },
  image: { what: 'an image model (e.g. openai.image("gpt-image-1"))', methods: [["doGenerate"]] },
  // A video model renders in one call (doGenerate) or starts a job and polls it.
  video: { what: "a video model", methods: [["doGenerate"], ["doStart", "doStatus"]] },
  speech: {
    what: 'a speech model (e.g. openai.speech("gpt-4o-mini-tts"))',
    methods: [["doGenerate"]],
  },
  transcription: {
    what: 'a transcription model (e.g. openai.transcription("gpt-4o-transcribe"))',
    methods: [["doGenerate"]],
  },
};

/** Throws unless every key of `record` is one of `allowed`. */
function requireKnownKeys(argument: string, record: object, allowed: readonly string[]): void {
  const unknown = Object.keys(record).find((key) => !allowed.includes(key));
  if (unknown !== undefined) {
    throw new ArgumentError({
      argument,
      message: `expected only ${allowed.join(", ")}, got ${JSON.stringify(unknown)}.`,
    });
  }
}

function requireModel(name: ModelName, value: unknown): void {
  const { what, methods } = MODEL_SHAPES[name];
  const implemented =
    typeof value === "object" &&
    value !== null &&
    methods.some((set) =>
      set.every((method) => typeof (value as Record<string, unknown>)[method] === "function"),
    );
  // A non-empty string is an AI Gateway model id, which the AI SDK resolves itself.
  if (implemented || (typeof value === "string" && value.trim() !== "")) return;
  throw new ArgumentError({
    argument: `models.${name}`,
    message: `expected ${what} or an AI Gateway model id, got ${describeArgument(value)}.`,
  });
}

function resolveModels(value: unknown): MediaModels {
  const models = requireObject("models", value, "an object of AI SDK models");
  requireKnownKeys("models", models, Object.keys(MODEL_SHAPES));
  for (const name of Object.keys(MODEL_SHAPES) as ModelName[])
    if (models[name] !== undefined) requireModel(name, models[name]);
  return models as MediaModels;
}

function resolveLimits(value: unknown): Readonly<Record<MediaKind, number>> {
  const limits = { ...DEFAULT_MEDIA_LIMITS };
  if (value === undefined) return limits;
  const given = requireObject("limits", value, "an object of byte limits per kind");
  requireKnownKeys("limits", given, Object.keys(limits));
  for (const kind of Object.keys(limits) as MediaKind[])
    if (given[kind] !== undefined)
      limits[kind] = requireWholeNumber(`limits.${kind}`, given[kind], 1);
  return limits;
}

function resolveTimeouts(value: unknown): Readonly<Record<UnderlyingToolName, number>> {
  const timeouts = { ...DEFAULT_TIMEOUTS_MS };
  const names = Object.keys(timeouts) as UnderlyingToolName[];
  if (value === undefined) return timeouts;
  if (typeof value !== "object" || value === null) {
    const all = requireWholeNumber("timeoutMs", value, 1, MAX_TIMER_MS);
    for (const name of names) timeouts[name] = all;
    return timeouts;
  }
  const given = requireObject("timeoutMs", value, "milliseconds, or an object of them per tool");
  requireKnownKeys("timeoutMs", given, names);
  for (const name of names)
    if (given[name] !== undefined)
      timeouts[name] = requireWholeNumber(`timeoutMs.${name}`, given[name], 1, MAX_TIMER_MS);
  return timeouts;
}

function resolveProviderOptions(value: unknown): MediaRuntime["providerOptions"] {
  if (value === undefined) return {};
  const given = requireObject("providerOptions", value, "an object of provider options per model");
  requireKnownKeys("providerOptions", given, Object.keys(MODEL_SHAPES));
  for (const [model, options] of Object.entries(given)) {
    if (options === undefined) continue;
    const byProvider = requireObject(`providerOptions.${model}`, options, "provider options");
    for (const [provider, settings] of Object.entries(byProvider))
      requireObject(`providerOptions.${model}.${provider}`, settings, "an object of settings");
  }
  return given as MediaRuntime["providerOptions"];
}

/** Every tool's name, as `views` may name it. */
const TOOL_NAMES: readonly MediaToolName[] = [
  "read_media",
  "generate_media",
  ...(Object.keys(DEFAULT_TIMEOUTS_MS) as UnderlyingToolName[]),
];

function resolveViews(value: unknown, tokenized: boolean): MediaRuntime["views"] {
  if (value === undefined) return {};
  const given = requireObject("views", value, "an object of views by tool name");
  requireKnownKeys("views", given, TOOL_NAMES);
  const views: MediaRuntime["views"] = {};
  for (const name of TOOL_NAMES) {
    if (given[name] === undefined) continue;
    const view = requireContextView(`views.${name}`, given[name]);
    if (view.maxTokens !== undefined && !tokenized) {
      throw new ArgumentError({
        argument: `views.${name}.maxTokens`,
        message: `view ${JSON.stringify(view.name)} has a token budget, which needs a tokenizer: pass \`context: { tokenizer }\` (approximateTokenizer, or o200kTokenizer from "@task-context/core/o200k").`,
      });
    }
    views[name] = view;
  }
  return views;
}

/** Throws unless `value` is a workspace the tools can read from and write to. */
function requireReadWriteWorkspace(value: unknown): Workspace {
  const workspace = requireWorkspace("workspace", value);
  if (typeof workspace.writeFile !== "function") {
    throw new ArgumentError({
      argument: "workspace",
      message: `expected a Workspace with readFile and writeFile, got an object without writeFile.`,
    });
  }
  return workspace;
}

/**
 * Checks every option of {@link createMediaTools} and fills in the defaults. Throws core's
 * `ArgumentError` (`INVALID_ARGUMENT`, naming the option) or `WorkspacePathError` for an
 * `outputDirectory` outside the workspace.
 */
export function resolveMediaRuntime(options: CreateMediaToolsOptions): MediaRuntime {
  requireObject("options", options, "the options object");
  const workspace = guardWorkspace(requireReadWriteWorkspace(options.workspace));
  const outputDirectory = parseWorkspacePath(
    requireText("outputDirectory", options.outputDirectory ?? "generated"),
  ).join("/");
  if (options.context !== undefined) {
    const context = requireObject("context", options.context, "CONTEXT.md loading options");
    if (context.required !== undefined) {
      throw new ArgumentError({
        argument: "context.required",
        message: `expected nothing: the media tools always require CONTEXT.md, got ${describeArgument(context.required)}.`,
      });
    }
    requireLoadOptions(options.context, "context.");
  }
  const maxRetries =
    options.maxRetries === undefined
      ? undefined
      : requireWholeNumber("maxRetries", options.maxRetries, 0);
  return {
    workspace,
    models: resolveModels(options.models),
    limits: resolveLimits(options.limits),
    timeouts: resolveTimeouts(options.timeoutMs),
    maxRetries,
    providerOptions: resolveProviderOptions(options.providerOptions),
    outputDirectory,
    context: options.context ?? {},
    views: resolveViews(options.views, options.context?.tokenizer !== undefined),
    profiles: [...requireModelProfiles("modelProfiles", options.modelProfiles), ...MODEL_PROFILES],
  };
}
