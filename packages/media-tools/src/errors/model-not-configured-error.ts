import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";

/**
 * The tool needs a model that was not passed to `createMediaTools({ models })`.
 *
 * @example
 * ```ts
 * new ModelNotConfiguredError("generate_video", "video").message;
 * // "generate_video needs a video model, and none is configured. Pass `models.video` to createMediaTools; …"
 * ```
 */
export class ModelNotConfiguredError extends MediaToolError {
  readonly tool: string;
  readonly model: string;

  constructor(tool: string, model: string, alternative?: string) {
    super(
      "MODEL_NOT_CONFIGURED",
      `${tool} needs a ${model} model, and none is configured. Pass \`models.${model}\` to createMediaTools${alternative === undefined ? "" : ` (or \`models.${alternative}\`)`}; until then this tool cannot be used.`,
    );
    this.name = "ModelNotConfiguredError";
    this.tool = tool;
    this.model = model;
  }

  static override isInstance(error: unknown): error is ModelNotConfiguredError {
    return TaskContextError.hasCode(error, "MODEL_NOT_CONFIGURED");
  }
}
