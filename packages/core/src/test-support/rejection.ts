import { TaskContextError } from "@task-context/core";

/** Awaits a promise that must reject with a TaskContextError and returns that error. */
export async function rejection(promise: Promise<unknown>): Promise<TaskContextError> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    if (!TaskContextError.isInstance(error)) {
      throw new Error(`expected a TaskContextError, got ${String(error)}`, { cause: error });
    }
    return error;
  }
  const shown =
    typeof value === "object" && value !== null && "bytes" in value
      ? JSON.stringify(new TextDecoder().decode((value as { bytes: Uint8Array }).bytes))
      : String(value);
  throw new Error(`expected a rejection, but it resolved with ${shown}`);
}
