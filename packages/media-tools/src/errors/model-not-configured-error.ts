import { TaskContextError } from "@task-context/core";
import { MediaToolError } from "./media-tool-error.ts";

const marker = "task-context.error.ModelNotConfiguredError";
const symbol = Symbol.for(marker);

/**
 * The tool needs a model that was not passed to `createMediaTools({ models })`. The tools return
 * it as `{ success: false, code: "MODEL_NOT_CONFIGURED", error }`.
 *
 * @example
 * ```ts source="../../examples/model-not-configured.ts#modelNotConfigured"
 * const { generate_audio } = createMediaTools({
 *   workspace: memoryWorkspace({ "CONTEXT.md": "We are building Lumen, a note-taking app." }),
 *   models: {},
 * });
 *
 * const result = await generate_audio.execute({ text: "Welcome to Lumen." });
 * if (!result.success) console.error(result.code, result.error);
 * // "MODEL_NOT_CONFIGURED" "generate_audio needs a speech model, and none is configured. Pass `models.speech` to createMediaTools; until then this tool cannot be used."
 * ```
 */
export class ModelNotConfiguredError extends MediaToolError<"MODEL_NOT_CONFIGURED"> {
  protected readonly [symbol] = true;
  override name = "ModelNotConfiguredError";
  readonly tool: string;
  readonly model: string;

  constructor({
    tool,
    model,
    alternative,
  }: {
    tool: string;
    model: string;
    alternative?: string | undefined;
  }) {
    super({
      code: "MODEL_NOT_CONFIGURED",
      message: `${tool} needs ${/^[aeiou]/i.test(model) ? "an" : "a"} ${model} model, and none is configured. Pass \`models.${model}\` to createMediaTools${alternative === undefined ? "" : ` (or \`models.${alternative}\`)`}; until then this tool cannot be used.`,
    });
    this.tool = tool;
    this.model = model;
  }

  static override isInstance(error: unknown): error is ModelNotConfiguredError {
    return TaskContextError.hasMarker(error, marker);
  }
}
