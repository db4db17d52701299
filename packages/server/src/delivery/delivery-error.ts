import { TaskContextError } from "@task-context/core";
import type { ValidationIssue } from "@task-context/protocols";

/**
 * Every code the delivery service answers with, and its HTTP status. The codes are the `code`
 * of the JSON error body `{ error, code, issues? }`; clients branch on them.
 */
export const deliveryErrorStatus = {
  INVALID_REQUEST: 400,
  INVALID_STAGES: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  SELF_REVIEW: 403,
  HOST_NOT_ALLOWED: 403,
  RUN_NOT_FOUND: 404,
  WORK_ITEM_NOT_FOUND: 404,
  ARTIFACT_NOT_FOUND: 404,
  SCHEMA_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  AGENT_TAG_TAKEN: 409,
  NOT_ON_OFFER: 409,
  LEASE_LOST: 409,
  ALREADY_COMPLETED: 409,
  NOT_DEAD_LETTERED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  INVALID_COMPLETION: 422,
  SECRET_IN_CONTEXT: 422,
  AGENT_CARD_INVALID: 422,
  AGENT_SKILLS_MISMATCH: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

/** The code of a {@link DeliveryError}, e.g. `"LEASE_LOST"`. */
export type DeliveryErrorCode = keyof typeof deliveryErrorStatus;

/** The HTTP status of an error code. */
export type DeliveryErrorStatus = (typeof deliveryErrorStatus)[DeliveryErrorCode];

const marker = "task-context.error.DeliveryError";
const symbol = Symbol.for(marker);

/**
 * A request the delivery service refuses, or a state change its rules forbid: a run or item that
 * does not exist (for this caller), a lease that is no longer current, a completion that breaks
 * the review context, … `status` is the HTTP status the service answers with; `issues` point at
 * the fields to fix (JSON Pointers).
 */
export class DeliveryError extends TaskContextError<DeliveryErrorCode> {
  protected readonly [symbol] = true;
  override name = "DeliveryError";
  /** The HTTP status of the code. */
  readonly status: DeliveryErrorStatus;
  /** The fields to fix, when the request itself is at fault. */
  readonly issues: ValidationIssue[] | undefined;

  constructor({
    code,
    message,
    issues,
    cause,
  }: {
    code: DeliveryErrorCode;
    message: string;
    issues?: ValidationIssue[];
    cause?: unknown;
  }) {
    super({ code, message, cause });
    this.status = deliveryErrorStatus[code];
    this.issues = issues;
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
