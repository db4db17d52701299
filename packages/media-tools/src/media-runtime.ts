import type {
  ContextView,
  LoadTaskContextOptions,
  ToolContext,
  Workspace,
} from "@task-context/core";
import type { MediaKind } from "./detect-media-type.ts";
import type {
  MediaModels,
  MediaToolName,
  ProviderOptions,
  UnderlyingToolName,
} from "./media-tools-options.ts";

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
}

/** One tool call: the loaded task context and the signal that aborts the external call. */
export interface MediaCall {
  context: ToolContext;
  signal: AbortSignal;
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
