import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";

const marker = "task-context.error.UnsupportedAiSdkError";
const symbol = Symbol.for(marker);

/** The major version of the AI SDK (the package `ai`) the media tools build on: the peer range `^7`. */
export const SUPPORTED_AI_MAJOR = 7;

/** The command that installs the AI SDK the media tools build on, and writes its range into package.json. */
export const INSTALL_AI_SDK = `npm install ai@${SUPPORTED_AI_MAJOR}`;

/**
 * Importing `@task-context/media-tools` on Node (or Bun, Deno) throws it, before the tools load,
 * when the installed `ai` is another major version than {@link SUPPORTED_AI_MAJOR}: typically AI
 * SDK 6, which npm installed on Node 20 and wrote into package.json as `"ai": "^6…"`, so a plain
 * reinstall on a newer Node keeps it or fails with ERESOLVE. The import would otherwise fail with
 * a bare "does not provide an export named …".
 */
export class UnsupportedAiSdkError extends MediaToolError<"UNSUPPORTED_AI_SDK"> {
  protected readonly [symbol] = true;
  override name = "UnsupportedAiSdkError";
  /** The version of `ai` that is installed, such as "6.0.326". */
  readonly aiVersion: string;

  constructor({ aiVersion }: { aiVersion: string }) {
    super({
      code: "UNSUPPORTED_AI_SDK",
      message: `@task-context/media-tools builds on AI SDK ${SUPPORTED_AI_MAJOR} (the package "ai"), and ai ${aiVersion} is installed. Run \`${INSTALL_AI_SDK}\`: it installs AI SDK ${SUPPORTED_AI_MAJOR} and writes its range into package.json (a plain reinstall keeps the range npm wrote before, or fails with ERESOLVE).`,
    });
    this.aiVersion = aiVersion;
  }

  static override isInstance(error: unknown): error is UnsupportedAiSdkError {
    return TaskContextError.hasMarker(error, marker);
  }
}
