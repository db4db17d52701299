import { TaskContextError } from "@task-context/core";
import { APICallError, type Warning } from "ai";
import { ProviderError } from "./errors/provider-error.ts";

function statusCodeOf(error: unknown): number | undefined {
  if (APICallError.isInstance(error)) return error.statusCode;
  // RetryError (after the SDK's retries) keeps the last attempt's error.
  const last = (error as { lastError?: unknown } | null)?.lastError;
  return APICallError.isInstance(last) ? last.statusCode : undefined;
}

/**
 * Runs one AI SDK call and turns whatever it throws into a {@link ProviderError} that keeps the
 * provider's message. Task-context errors pass through, and after an abort the abort's reason
 * (timeout or caller) wins over the error the aborted request produced.
 */
export async function callProvider<T>(
  tool: string,
  signal: AbortSignal,
  call: () => PromiseLike<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (TaskContextError.isInstance(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ProviderError({
      tool,
      providerMessage: message,
      statusCode: statusCodeOf(error),
      cause: error,
    });
  }
}

/**
 * The SDK's call warnings as one sentence for the agent, or `undefined` when there are none.
 * A speech model that ignores `instructions` is called out: the task context travels there.
 */
export function describeWarnings(warnings: readonly Warning[] | undefined): string | undefined {
  if (warnings === undefined || warnings.length === 0) return undefined;
  const sentences = warnings.map((warning) => {
    switch (warning.type) {
      case "other":
        return warning.message;
      case "deprecated":
        return `Deprecated ${warning.setting}: ${warning.message}`;
      case "compatibility":
        return `Compatibility: ${warning.feature}${warning.details === undefined ? "" : ` (${warning.details})`}.`;
      case "unsupported": {
        const sentence = `The model does not support ${warning.feature}${warning.details === undefined ? "" : ` (${warning.details})`}`;
        return warning.feature === "instructions"
          ? `${sentence}, so the task context (sent as instructions) did not reach it.`
          : `${sentence}.`;
      }
    }
    return JSON.stringify(warning);
  });
  return `Provider warnings: ${sentences.join(" ")}`;
}
