import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ErrorBody } from "../contract/schemas.ts";
import { toDeliveryError } from "../http/error-response.ts";

/** A tool's answer: the contract's JSON as `structuredContent`, and the same JSON as text. */
export function toolResult(value: object): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
}

/**
 * Any failure of a tool as a tool error (`isError: true`): its content names the code and the
 * message (`LEASE_LOST: …`), its `structuredContent` is the contract's error body
 * `{ error, code, issues? }`, the same as the HTTP answer's. An unexpected failure is
 * `INTERNAL_ERROR`, never with its message (see `toDeliveryError`).
 */
export function toolError(
  error: unknown,
  onUnexpectedError?: (error: unknown) => void,
): CallToolResult {
  const failure = toDeliveryError(error);
  if (failure.code === "INTERNAL_ERROR") onUnexpectedError?.(error);
  const body: ErrorBody = {
    error: failure.message,
    code: failure.code,
    ...(failure.issues === undefined ? {} : { issues: failure.issues }),
  };
  return {
    isError: true,
    content: [{ type: "text", text: `${failure.code}: ${failure.message}` }],
    structuredContent: body,
  };
}
