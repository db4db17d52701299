import { TaskContextError } from "@task-context/core";
import type { errorStatus } from "./generated/error-codes.ts";
import type { ErrorBody } from "./generated/schemas.ts";

/** Every code the delivery service answers with, e.g. `"LEASE_LOST"`. */
export type ErrorCode = keyof typeof errorStatus;

/** A field to fix: its JSON Pointer and what is wrong with it. */
export type ValidationIssue = NonNullable<ErrorBody["issues"]>[number];

/**
 * The `code` of a {@link ServiceError}: every code the delivery service answers with, and two of
 * the client's own.
 *
 * - `NETWORK_ERROR`: no answer — the connection could not be made, or broke before the answer
 *   was read. The request may or may not have been applied.
 * - `UNEXPECTED_RESPONSE`: an answer that is not the contract's — not JSON, or an error body
 *   without a code the client knows (a proxy's error page, a newer service). `status` is its
 *   HTTP status.
 */
export type ServiceErrorCode = ErrorCode | "NETWORK_ERROR" | "UNEXPECTED_RESPONSE";

const marker = "task-context.error.ServiceError";
const symbol = Symbol.for(marker);

/**
 * A request to the delivery service that did not succeed: the service refused it (`status`,
 * `code` and `issues` are its answer's), or no answer came (`NETWORK_ERROR`). The message is the
 * service's own (what happened and what to do) or says why there was no answer.
 *
 * @example
 * ```ts source="../../server/examples/typed-client.ts#errors"
 * try {
 *   await agent.heartbeat(item.id, { attempt: lease.attempt });
 * } catch (error) {
 *   if (!ServiceError.isInstance(error)) throw error;
 *   console.log(error.status, error.code); // 409 ALREADY_COMPLETED: stop working on the item
 * }
 * ```
 */
export class ServiceError extends TaskContextError<ServiceErrorCode> {
  protected readonly [symbol] = true;
  override name = "ServiceError";
  /** The HTTP status of the answer; undefined when none came (`NETWORK_ERROR`). */
  readonly status: number | undefined;
  /** The fields to fix (JSON Pointers), when the request itself was at fault. */
  readonly issues: ValidationIssue[] | undefined;
  /** For `RATE_LIMITED`: how many seconds the service asked to wait (`Retry-After`). */
  readonly retryAfter: number | undefined;

  constructor({
    code,
    message,
    status,
    issues,
    retryAfter,
    cause,
  }: {
    code: ServiceErrorCode;
    message: string;
    status?: number;
    issues?: ValidationIssue[];
    retryAfter?: number;
    cause?: unknown;
  }) {
    super({ code, message, cause });
    this.status = status;
    this.issues = issues;
    this.retryAfter = retryAfter;
  }

  /** True for a {@link ServiceError} from any bundled copy of the client. */
  static override isInstance(error: unknown): error is ServiceError {
    return TaskContextError.hasMarker(error, marker);
  }
}
