// The entry point on Node, Bun and Deno (the `node` export condition). On Node older than 22 it
// throws UnsupportedRuntimeError, naming the requirement, before the AI SDK is loaded; with an
// `ai` of another major than 7 installed, UnsupportedAiSdkError, naming the command that fixes
// it. The checks cannot sit in front of static imports of the tools: ES modules link every static
// import (and fail on a missing export of an older `ai`) before any of them runs. So the checks
// run first, and the tools are imported after them; the errors, which do not load the AI SDK, are
// exported as they are. Types come from index.ts (the `types` condition).
import { installedAiVersion, requireSupportedAiSdk } from "./require-supported-ai-sdk.ts";
import { requireSupportedNode } from "./require-supported-node.ts";

requireSupportedNode(globalThis.process?.versions?.node);
// An AI SDK of another major (AI SDK 6, kept from an install on Node 20): UnsupportedAiSdkError,
// naming the command that installs the right one, instead of a missing export.
requireSupportedAiSdk(installedAiVersion());

export * from "./errors/index.ts";
export const {
  createMediaTools,
  findModelProfile,
  fitContextToProfile,
  MODEL_PROFILES,
  TASK_CONTEXT_METADATA_KEY,
  taskContextMiddleware,
} = await import("./index.ts");
