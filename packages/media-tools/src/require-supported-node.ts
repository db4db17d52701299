import { MINIMUM_NODE_MAJOR, UnsupportedRuntimeError } from "./errors/unsupported-runtime-error.ts";

/**
 * Throws `UnsupportedRuntimeError` when `nodeVersion` (such as `process.versions.node`) is older
 * than Node 22; does nothing when it is undefined (a runtime that is not Node-compatible).
 */
export function requireSupportedNode(nodeVersion: string | undefined): void {
  if (nodeVersion === undefined) return;
  const major = Number.parseInt(nodeVersion, 10);
  if (major < MINIMUM_NODE_MAJOR) throw new UnsupportedRuntimeError({ nodeVersion });
}
