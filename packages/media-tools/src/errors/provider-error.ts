import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";

const marker = "task-context.error.ProviderError";
const symbol = Symbol.for(marker);

/**
 * The external model call failed, or returned something that is not the media asked for (nothing,
 * an HTML error page, JSON, text); the message keeps the provider's own message. The tools return
 * it as `{ success: false, code: "PROVIDER_ERROR", error }` and write nothing.
 *
 * @example
 * ```ts source="../../examples/provider-error.ts#providerError"
 * const { generate_image } = createMediaTools({
 *   workspace: memoryWorkspace({ "CONTEXT.md": "We are building Lumen." }),
 *   models: { image: openai.image("gpt-image-1") },
 * });
 * const result = await generate_image.execute({ prompt: "A logo.", size: "7x7" });
 * if (!result.success && result.code === "PROVIDER_ERROR") console.error(result.error);
 * // "generate_image: the model provider failed (HTTP 400): Invalid size: 7x7 is not supported."
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
