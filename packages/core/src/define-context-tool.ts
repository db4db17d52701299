import { describeArgument, requireObject, requireString, requireText } from "./arguments.ts";
import { ArgumentError } from "./errors/argument-error.ts";
import type { CoreErrorCode } from "./errors/core-error-code.ts";
import { TaskContextError } from "./errors/task-context-error.ts";
import { injectTaskContext } from "./inject-task-context.ts";
import { requireLoadOptions } from "./load-options.ts";
import { loadTaskContextFrom, requireWorkspace } from "./load-task-context-from.ts";
import type { LoadTaskContextOptions, TaskContext } from "./task-context.ts";
import { thrownMessage } from "./thrown-message.ts";
import { type ContextView, requireContextView } from "./views/context-view.ts";
import type { Workspace } from "./workspace.ts";

/** Names the model must never see in a context tool's parameters: task-context supplies them. */
export const CONTEXT_PARAMETER_NAMES = ["taskContext", "task_context", "warning"] as const;

/**
 * True for a parameter name that reads as one of {@link CONTEXT_PARAMETER_NAMES} in any spelling
 * (`task-context`, `TaskContext`, `WARNING`): the model may neither declare nor send one.
 */
function isContextParameterName(name: string): boolean {
  const folded = name.toLowerCase().replace(/[-_\s]/g, "");
  return folded === "taskcontext" || folded === "warning";
}

/** The model's arguments without anything posing as a context parameter. */
function withoutContextParameters(input: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).filter(([name]) => !isContextParameterName(name)),
  );
}

/** What a context tool's `execute` receives besides the model's arguments. */
export interface ToolContext {
  /** The CONTEXT.md content to prepend to the external prompt. */
  taskContext: string;
  /** The truncation or repair warning, also added to the tool's result. */
  warning: string | undefined;
  /** Everything the loader reported (hash, lengths, truncation). */
  loaded: TaskContext;
  /** `injectTaskContext(prompt, taskContext)`: the prompt to send to the external model. */
  prependTaskContext(prompt: string): string;
}

/** The context parameters added to the model's arguments before `execute` sees them. */
export interface ContextParameters {
  taskContext: string;
  warning: string | undefined;
}

/**
 * A context tool's result: the tool's own fields on success, a guiding error otherwise. `code` is
 * the `code` of the task-context error that stopped the call (`TASK_CONTEXT_MISSING`, a package's
 * own codes), or `TOOL_EXECUTION_FAILED` when `execute` threw anything else.
 */
export type ContextToolResult<Output extends object> =
  | ({ success: true; warning?: string } & Output)
  | {
      success: false;
      error: string;
      code: CoreErrorCode | "TOOL_EXECUTION_FAILED" | (string & {});
    };

/** Per-call options of a context tool. */
export interface ContextToolCallOptions {
  /** The workspace to read CONTEXT.md from, overriding the definition's. */
  workspace?: Workspace;
  /** The view of CONTEXT.md this call delivers, overriding the definition's `load.view`. */
  view?: ContextView | undefined;
}

/** The definition given to {@link defineContextTool}. */
export interface ContextToolDefinition<Input, Output extends object, Parameters> {
  name: string;
  description: string;
  /** The input schema the model sees (JSON Schema, zod, …); it must not declare the context parameters. */
  parameters: Parameters;
  /** Where CONTEXT.md is read from on each call (or pass `workspace` per call). */
  workspace?: Workspace;
  /** Loader options (`maxChars`, `maxTokens`, `tokenizer`); CONTEXT.md is always required. */
  load?: Omit<LoadTaskContextOptions, "required">;
  /**
   * Runs the tool. Like a `@context_params` decorator, the arguments arrive with `taskContext` and
   * `warning` added; the second argument carries the same plus the loader's details.
   */
  execute(input: Input & ContextParameters, context: ToolContext): Output | Promise<Output>;
}

/** A tool whose every call loads CONTEXT.md and hands it to `execute`, invisibly to the model. */
export interface ContextTool<Input, Output extends object, Parameters> {
  readonly name: string;
  readonly description: string;
  /** Exactly the schema given in the definition: never contains the context parameters. */
  readonly parameters: Parameters;
  execute(input: Input, options?: ContextToolCallOptions): Promise<ContextToolResult<Output>>;
}

function declaredNames(parameters: unknown): string[] {
  if (typeof parameters !== "object" || parameters === null) return [];
  const { properties, shape } = parameters as { properties?: unknown; shape?: unknown };
  const names = [properties, shape].flatMap((fields) =>
    typeof fields === "object" && fields !== null ? Object.keys(fields) : [],
  );
  return names;
}

/**
 * Defines a tool that needs the task context (the `@context_params` pattern). Each call loads
 * CONTEXT.md through core — it may have been written during the run — and passes it to `execute`
 * with the model's arguments (`taskContext` and `warning` are added to them, and repeated in the
 * second argument); the model's parameter schema never contains them.
 *
 * Missing CONTEXT.md → `{ success: false, error, code: "TASK_CONTEXT_MISSING" }` with the guiding
 * message, and `execute` is not called. Truncated → `{ success: true, ...output, warning }`. With
 * a view (`load.view`, or `view` per call) `execute` receives the view's sections only; a view that
 * selects nothing → `{ success: false, code: "CONTEXT_VIEW_EMPTY" }`.
 *
 * @example
 * ```ts source="../examples/define-context-tool.ts#defineContextTool"
 * const understandImage = defineContextTool({
 *   name: "understand_image",
 *   description: "Answer a question about an image.",
 *   parameters: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
 *   workspace,
 *   async execute(input: { prompt: string }, { prependTaskContext }) {
 *     return { text: await callVisionModel(prependTaskContext(input.prompt)) };
 *   },
 * });
 *
 * const result = await understandImage.execute({ prompt: "What does the header say?" });
 * // { success: true, text: "…" }                   — the context went with the prompt
 * // { success: true, text: "…", warning: "…" }     — CONTEXT.md was truncated
 * // { success: false, error: "CONTEXT.md not found …", code: "TASK_CONTEXT_MISSING" } — nothing sent
 * ```
 */
export function defineContextTool<Input, Output extends object, Parameters>(
  definition: ContextToolDefinition<Input, Output, Parameters>,
): ContextTool<Input, Output, Parameters> {
  requireObject("definition", definition, "a tool definition object");
  requireText("definition.name", definition.name, "the tool's name, a non-empty string");
  requireString("definition.description", definition.description);
  if (typeof definition.execute !== "function") {
    throw new ArgumentError({
      argument: "definition.execute",
      message: `expected a function, got ${describeArgument(definition.execute)}.`,
    });
  }
  if (definition.workspace !== undefined)
    requireWorkspace("definition.workspace", definition.workspace);
  const load = { ...requireLoadOptions(definition.load ?? {}, "definition.load."), required: true };
  const reserved = declaredNames(definition.parameters).filter(isContextParameterName);
  if (reserved.length > 0) {
    throw new ArgumentError({
      argument: "parameters",
      message: `tool "${definition.name}" declares ${reserved.join(", ")}, which task-context supplies itself; remove them from the schema the model sees.`,
    });
  }

  async function execute(
    input: Input,
    options: ContextToolCallOptions = {},
  ): Promise<ContextToolResult<Output>> {
    try {
      const { workspace = definition.workspace, view } = requireObject("options", options);
      if (workspace === undefined) {
        throw new ArgumentError({
          argument: "workspace",
          message: `tool "${definition.name}" has no workspace: pass one to defineContextTool or to execute.`,
        });
      }
      const loaded = await loadTaskContextFrom(
        requireWorkspace("workspace", workspace),
        view === undefined ? load : { ...load, view: requireContextView("options.view", view) },
      );
      const parameters: ContextParameters = {
        taskContext: loaded.content,
        warning: loaded.warning,
      };
      // Whatever the model sent under a context parameter's name is dropped: only the loader's
      // context reaches execute.
      const withContext =
        typeof input === "object" && input !== null && !Array.isArray(input)
          ? { ...withoutContextParameters(input), ...parameters }
          : input;
      const output: unknown = await definition.execute(withContext as Input & ContextParameters, {
        ...parameters,
        loaded,
        prependTaskContext: (prompt) => injectTaskContext(prompt, loaded.content),
      });
      if (typeof output !== "object" || output === null || Array.isArray(output)) {
        return failure(`execute returned ${describeArgument(output)} instead of an object`);
      }
      const warnings = [loaded.warning, (output as { warning?: unknown }).warning].filter(
        (warning): warning is string => typeof warning === "string" && warning !== "",
      );
      // `success` is the tool's verdict, not the output's: it comes last.
      return {
        ...output,
        success: true,
        ...(warnings.length > 0 ? { warning: warnings.join(" ") } : {}),
      } as ContextToolResult<Output>;
    } catch (error) {
      if (TaskContextError.isInstance(error))
        return { success: false, error: error.message, code: error.code };
      return failure(thrownMessage(error));
    }
  }

  function failure(problem: string): ContextToolResult<Output> {
    return {
      success: false,
      error: `${definition.name} failed: ${problem}`,
      code: "TOOL_EXECUTION_FAILED",
    };
  }

  return {
    name: definition.name,
    description: definition.description,
    parameters: definition.parameters,
    execute,
  };
}
