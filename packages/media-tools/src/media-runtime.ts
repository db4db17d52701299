import type {
  ContextView,
  LoadTaskContextOptions,
  ToolContext,
  Workspace,
} from "@task-context/core";
import type { MediaKind } from "./detect-media-type.ts";
import type { ContextFit } from "./fit-context-to-profile.ts";
import type {
  MediaModels,
  MediaToolName,
  ProviderOptions,
  UnderlyingToolName,
} from "./media-tools-options.ts";
import type { ModelProfile } from "./model-profile.ts";

/** The checked options, with their defaults, that every tool implementation works with. */
export interface MediaRuntime {
  /** The user's workspace behind the guard of guard-workspace.ts. */
  workspace: Workspace;
  models: MediaModels;
  limits: Readonly<Record<MediaKind, number>>;
  timeouts: Readonly<Record<UnderlyingToolName, number>>;
  maxRetries: number | undefined;
  providerOptions: Partial<Record<keyof MediaModels, ProviderOptions>>;
  outputDirectory: string;
  context: Omit<LoadTaskContextOptions, "required">;
  /** The checked view of each tool that has one. */
  views: Partial<Record<MediaToolName, ContextView>>;
  /** The user's model profiles, then the built-in ones: the first that matches a model applies. */
  profiles: readonly ModelProfile[];
}

/** One tool call: the loaded task context and the signal that aborts the external call. */
export interface MediaCall {
  context: ToolContext;
  signal: AbortSignal;
  /**
   * Set when the context was fitted to the model's profile: the fit, its warning, the text sent
   * and its hash.
   */
  fitted?: { fit: ContextFit; warning: string | undefined; text: string; sha256: string };
}

/** The SDK call options shared by every call: abort signal, retries, provider options. */
export function callSettings(
  runtime: MediaRuntime,
  call: MediaCall,
  model: keyof MediaModels,
): { abortSignal: AbortSignal; maxRetries?: number; providerOptions?: ProviderOptions } {
  const providerOptions = runtime.providerOptions[model];
  return {
    abortSignal: call.signal,
    ...(runtime.maxRetries === undefined ? {} : { maxRetries: runtime.maxRetries }),
    ...(providerOptions === undefined ? {} : { providerOptions }),
  };
}
