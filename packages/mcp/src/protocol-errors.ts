import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
} from "@modelcontextprotocol/server";
import { TaskContextError } from "@task-context/core";

/**
 * Turns a task-context refusal while reading a resource into the protocol's error: a missing or
 * unusable file is `ResourceNotFoundError` (the SDK answers -32602 with `data.uri`), with core's
 * message — the missing-CONTEXT.md guidance, the symbolic-link or FIFO refusal. Anything else
 * propagates unchanged.
 */
export function resourceError(uri: string, error: unknown): never {
  if (TaskContextError.isInstance(error)) throw new ResourceNotFoundError(uri, error.message);
  throw error;
}

/**
 * Turns a task-context refusal while getting a prompt into an Invalid Request error with core's
 * message and the error's `code` in `data`: a prompt has no `isError` result of its own.
 */
export function promptError(error: unknown): never {
  if (TaskContextError.isInstance(error)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, error.message, { code: error.code });
  }
  throw error;
}
