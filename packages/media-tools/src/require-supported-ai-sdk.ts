import { createRequire } from "node:module";
import { SUPPORTED_AI_MAJOR, UnsupportedAiSdkError } from "./errors/unsupported-ai-sdk-error.ts";

/**
 * The version of the `ai` package this package resolves, from its package.json; undefined when
 * it cannot be resolved (not installed: the import of `ai` that follows names the package itself).
 */
export function installedAiVersion(): string | undefined {
  let manifest: unknown;
  try {
    manifest = createRequire(import.meta.url)("ai/package.json");
  } catch {
    return undefined;
  }
  const { version } = manifest as { version?: unknown };
  return typeof version === "string" ? version : undefined;
}

/**
 * Throws `UnsupportedAiSdkError` when `aiVersion` (such as "6.0.326") is not of the major version
 * the tools build on; does nothing when it is undefined.
 */
export function requireSupportedAiSdk(aiVersion: string | undefined): void {
  if (aiVersion === undefined) return;
  if (Number.parseInt(aiVersion, 10) !== SUPPORTED_AI_MAJOR) {
    throw new UnsupportedAiSdkError({ aiVersion });
  }
}
