import type { ErrorBody } from "@task-context/contract";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DeliveryError, type DeliveryErrorCode } from "../delivery/delivery-error.ts";

/** The JSON error answer `{ error, code, issues? }` for a `DeliveryError`. */
export function errorResponse(c: Context, error: DeliveryError): Response {
  const body: ErrorBody = {
    error: error.message,
    code: error.code,
    ...(error.issues === undefined ? {} : { issues: error.issues }),
  };
  if (error.code === "UNAUTHORIZED") c.header("WWW-Authenticate", 'Bearer realm="task-context"');
  return c.json(body, error.status as ContentfulStatusCode);
}

const codesByStatus: Partial<Record<number, DeliveryErrorCode>> = {
  400: "INVALID_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "RATE_LIMITED",
  503: "SERVICE_UNAVAILABLE",
};

/**
 * Any error as a `DeliveryError`: its own, Hono's `HTTPException`s (malformed JSON, …) by their
 * status, anything else as `INTERNAL_ERROR` — never with its message or stack, which could leak
 * internals.
 */
export function toDeliveryError(error: unknown): DeliveryError {
  if (DeliveryError.isInstance(error)) return error;
  if (error instanceof HTTPException) {
    const code = codesByStatus[error.status] ?? "INVALID_REQUEST";
    const message =
      error.message === "Malformed JSON in request body"
        ? "The request body is not valid JSON. Send a JSON object with Content-Type: application/json."
        : error.message || `The request was refused (${error.status}).`;
    return new DeliveryError({ code, message, cause: error });
  }
  return new DeliveryError({
    code: "INTERNAL_ERROR",
    message:
      "The service failed to answer this request. Try again; if it keeps failing, report it.",
    cause: error,
  });
}
