import { MediaToolAbortedError } from "./errors/media-tool-aborted-error.ts";
import { MediaToolTimeoutError } from "./errors/media-tool-timeout-error.ts";

/** Whether an abort reason is a timeout: `AbortSignal.timeout`, as the AI SDK's tool timeouts use. */
function isTimeout(reason: unknown): boolean {
  return (reason as { name?: unknown } | null)?.name === "TimeoutError";
}

/**
 * Runs `run` with a signal that aborts after `timeoutMs` or when `callerSignal` aborts, and
 * settles as soon as either happens, even when the work underneath ignores the signal: a timeout
 * (ours, or the caller's `AbortSignal.timeout`, e.g. `generateText({ timeout: { toolMs } })`)
 * rejects with {@link MediaToolTimeoutError}, any other abort with {@link MediaToolAbortedError}.
 */
export function withDeadline<T>(
  tool: string,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const callerFailure = (reason: unknown) =>
    isTimeout(reason)
      ? new MediaToolTimeoutError({ tool, timeoutMs: undefined })
      : new MediaToolAbortedError({ tool, reason });
  if (callerSignal?.aborted) return Promise.reject(callerFailure(callerSignal.reason));

  return new Promise<T>((resolve, reject) => {
    const controller = new AbortController();
    const settle = () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    };
    const stop = (failure: Error) => {
      if (controller.signal.aborted) return;
      controller.abort(failure);
      settle();
      reject(failure);
    };
    const onCallerAbort = () => stop(callerFailure(callerSignal?.reason));
    const timer = setTimeout(() => stop(new MediaToolTimeoutError({ tool, timeoutMs })), timeoutMs);
    callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
    run(controller.signal).then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(controller.signal.aborted ? controller.signal.reason : error);
      },
    );
  });
}
