import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";

const marker = "task-context.error.ProviderError";
const symbol = Symbol.for(marker);

/**
 * The external model call failed; the message keeps the provider's own message.
 *
 * @example
 * ```ts
 * // A provider's HTTP 400 "Invalid size: 7x7 is not supported." becomes
 * // { success: false, code: "PROVIDER_ERROR",
 * //   error: "generate_image: the model provider failed (HTTP 400): Invalid size: 7x7 is not supported." }
 * ```
 */
export class ProviderError extends MediaToolError<"PROVIDER_ERROR"> {
  protected readonly [symbol] = true;
  override name = "ProviderError";
  readonly tool: string;
  /** The HTTP status of the failed request, when the provider reported one. */
  readonly statusCode: number | undefined;

  constructor({
    tool,
    providerMessage,
    statusCode,
    cause,
  }: {
    tool: string;
    providerMessage: string;
    statusCode?: number | undefined;
    cause?: unknown;
  }) {
    super({
      code: "PROVIDER_ERROR",
      message: `${tool}: the model provider failed${statusCode === undefined ? "" : ` (HTTP ${statusCode})`}: ${providerMessage}`,
      cause,
    });
    this.tool = tool;
    this.statusCode = statusCode;
  }

  static override isInstance(error: unknown): error is ProviderError {
    return TaskContextError.hasMarker(error, marker);
  }
}
