import {
  type DeliveryErrorCode,
  type DeliveryErrorStatus,
  deliveryErrorStatus,
} from "@task-context/contract";
import { TaskContextError } from "@task-context/core";
import type { ValidationIssue } from "@task-context/protocols";

// The codes and their HTTP statuses are the contract's error table; the modules of the server
// (and its deprecated root export) take them from here.
export { type DeliveryErrorCode, type DeliveryErrorStatus, deliveryErrorStatus };

/**
 * Which check of a request's input refused it, for an entry that tells its caller in its own
 * words (an A2A agent's failure reason): its body's size against the service's limit, its text
 * (well-formed Unicode), or its schema.
 */
export type InputRefusal =
  | { check: "body-size"; bytes: number; limit: number }
  | { check: "well-formed" }
  | { check: "schema" };

const marker = "task-context.error.DeliveryError";
const symbol = Symbol.for(marker);

/**
 * A request the delivery service refuses, or a state change its rules forbid: a run or item that
 * does not exist (for this caller), a lease that is no longer current, a completion that breaks
 * the review context, … `status` is the HTTP status the service answers with (the contract's
 * error table); `issues` point at the fields to fix (JSON Pointers).
 */
export class DeliveryError extends TaskContextError<DeliveryErrorCode> {
  protected readonly [symbol] = true;
  override name = "DeliveryError";
  /** The HTTP status of the code. */
  readonly status: DeliveryErrorStatus;
  /** The fields to fix, when the request itself is at fault. */
  readonly issues: ValidationIssue[] | undefined;
  /** Which check of the request's input refused it, when one did. */
  readonly refused: InputRefusal | undefined;

  constructor({
    code,
    message,
    issues,
    refused,
    cause,
  }: {
    code: DeliveryErrorCode;
    message: string;
    issues?: ValidationIssue[];
    refused?: InputRefusal;
    cause?: unknown;
  }) {
    super({ code, message, cause });
    this.status = deliveryErrorStatus[code];
    this.issues = issues;
    this.refused = refused;
  }

  static override isInstance(error: unknown): error is DeliveryError {
    return TaskContextError.hasMarker(error, marker);
  }
}

/**
 * `RUN_NOT_FOUND` for `runId`: the one answer for a run that does not exist, whose id is
 * malformed, or that the caller's token does not belong to — a token reveals nothing about
 * other runs.
 */
export function runNotFound(runId: string): DeliveryError {
  return new DeliveryError({
    code: "RUN_NOT_FOUND",
    message: `No run ${runId}. Check the run id (and that your token belongs to that run).`,
  });
}
