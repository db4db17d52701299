import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";
import { INSTALL_AI_SDK, SUPPORTED_AI_MAJOR } from "./unsupported-ai-sdk-error.ts";

const marker = "task-context.error.UnsupportedRuntimeError";
const symbol = Symbol.for(marker);

/** The oldest Node the media tools run on: AI SDK 7, which they build on, needs Node 22. */
export const MINIMUM_NODE_MAJOR = 22;

/**
 * Importing `@task-context/media-tools` on Node older than 22 throws it, before the AI SDK is
 * loaded: there npm installs AI SDK 6 (its `engines` rule out 7), which lacks functions the tools
 * use, and the import would otherwise fail with a bare "does not provide an export named …". The
 * message names the command that installs AI SDK 7 once on a newer Node.
 */
export class UnsupportedRuntimeError extends MediaToolError<"UNSUPPORTED_RUNTIME"> {
  protected readonly [symbol] = true;
  override name = "UnsupportedRuntimeError";
  /** The Node version that was refused, such as "20.20.2". */
  readonly nodeVersion: string;

  constructor({ nodeVersion }: { nodeVersion: string }) {
    super({
      code: "UNSUPPORTED_RUNTIME",
      message: `@task-context/media-tools needs Node ${MINIMUM_NODE_MAJOR} or later (the AI SDK ${SUPPORTED_AI_MAJOR} it builds on needs it), and this is Node ${nodeVersion}. Run on Node ${MINIMUM_NODE_MAJOR} or later, then \`${INSTALL_AI_SDK}\`: on Node 20 npm installs AI SDK 6, which lacks functions the tools use, and writes "ai": "^6…" into package.json, which a plain reinstall keeps (or fails on with ERESOLVE).`,
    });
    this.nodeVersion = nodeVersion;
  }

  static override isInstance(error: unknown): error is UnsupportedRuntimeError {
    return TaskContextError.hasMarker(error, marker);
  }
}
