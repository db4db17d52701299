// The entry point on Node, Bun and Deno (the `node` export condition). On Node older than 22 it
// throws UnsupportedRuntimeError, naming the requirement, before the AI SDK is loaded. The check
// cannot sit in front of static imports of the tools: ES modules link every static import (and
// fail on a missing export of an older `ai`) before any of them runs. So the check runs first, and
// the tools are imported after it; the errors, which do not load the AI SDK, are exported as they
// are. Types come from index.ts (the `types` condition).
import { requireSupportedNode } from "./require-supported-node.ts";

requireSupportedNode(globalThis.process?.versions?.node);

export * from "./errors/index.ts";
export const { createMediaTools, TASK_CONTEXT_METADATA_KEY, taskContextMiddleware } = await import(
  "./index.ts"
);
