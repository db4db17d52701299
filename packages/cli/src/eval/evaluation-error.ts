import { TaskContextError } from "@task-context/core";

const marker = "task-context.error.EvaluationError";
const symbol = Symbol.for(marker);

/** Every `code` an {@link EvaluationError} carries. */
export type EvaluationErrorCode =
  /** The eval spec is not valid: the message names the field and what to do. */
  | "EVAL_SPEC_INVALID"
  /** The results file holds a line that is not a trial this version wrote. */
  | "EVAL_RESULTS_INVALID";

/** A failure of `task-context eval` or `runEval`: a bad spec or results file. */
export class EvaluationError extends TaskContextError<EvaluationErrorCode> {
  protected readonly [symbol] = true;
  override name = "EvaluationError";

  /** True for an {@link EvaluationError} from any bundled copy. */
  static override isInstance(error: unknown): error is EvaluationError {
    return TaskContextError.hasMarker(error, marker);
  }
}
