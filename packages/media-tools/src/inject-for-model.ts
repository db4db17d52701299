import { sha256Hex } from "@task-context/core/internal";
import { findModelProfile } from "./find-model-profile.ts";
import { type ContextFit, fitContextToProfile } from "./fit-context-to-profile.ts";
import type { MediaCall, MediaRuntime } from "./media-runtime.ts";

/**
 * The text to send `model` for `request`: `[Task Context]\n…\n\n[Request]\n{request}` as always,
 * and for a model with a profile whose prompt limit it would exceed, the context fitted to it
 * (or left out), recorded on the call for the result's receipt and warning.
 */
export async function injectForModel(
  runtime: MediaRuntime,
  call: MediaCall,
  model: unknown,
  request: string,
): Promise<string> {
  const profile = findModelProfile(model, runtime.profiles);
  if (profile === undefined) return call.context.prependTaskContext(request);
  const fitted = await fitContextToProfile({
    context: call.context.taskContext,
    contextSha256: call.context.loaded.sha256,
    request,
    profile,
    tokenizer: runtime.context.tokenizer,
  });
  if (fitted.fit !== undefined) {
    call.fitted = {
      fit: fitted.fit,
      warning: fitted.warning,
      text: fitted.context,
      sha256: await sha256Hex(fitted.context),
    };
  }
  return fitted.prompt;
}

/**
 * A tool's output with the fit its call made, if any: `contextFit`, `contextSha256` (the hash of
 * the context actually sent) and the fit's warning after the output's own.
 */
export function withContextFit<Output extends { warning?: string }>(
  output: Output,
  call: MediaCall | undefined,
): Output & { contextFit?: ContextFit; contextSha256?: string } {
  const fitted = call?.fitted;
  if (fitted === undefined) return output;
  const warning = [output.warning, fitted.warning].filter((text) => text !== undefined).join(" ");
  return {
    ...output,
    contextFit: fitted.fit,
    contextSha256: fitted.sha256,
    ...(warning === "" ? {} : { warning }),
  };
}
