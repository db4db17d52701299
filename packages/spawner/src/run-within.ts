import type {
  SubagentInvocation,
  SubagentRunner,
  SubagentRunnerOutput,
} from "./subagent-runner.ts";

/** How a runner call ended: with a value, with an error, or stopped by the spawner. */
export type RunOutcome =
  | { kind: "output"; value: SubagentRunnerOutput }
  | { kind: "error"; error: unknown }
  | { kind: "stopped"; reason: "timeout" | "aborted"; error?: unknown };

/** Resolves after `ms` milliseconds unless cancelled; never holds the process open when cancelled. */
function delay(ms: number): { promise: Promise<void>; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * Calls the runner, racing it against the task's timeout and the caller's signal. On a stop it
 * aborts the invocation's signal, stops waiting, and gives the runner `stopGraceMs` to settle (a
 * child process runner uses it to make sure its process group is gone); the error the runner
 * settles with in that time comes back with the outcome, for its log. Never rejects.
 */
export async function runWithin(
  runner: SubagentRunner,
  invocation: Omit<SubagentInvocation, "signal">,
  timeoutMs: number,
  outer: AbortSignal | undefined,
): Promise<RunOutcome> {
  const controller = new AbortController();
  let reason: "timeout" | "aborted" | undefined;
  const stop = (why: "timeout" | "aborted", cause: unknown) => {
    if (reason !== undefined) return;
    reason = why;
    controller.abort(cause);
  };
  const stopped = new Promise<undefined>((resolve) =>
    controller.signal.addEventListener("abort", () => resolve(undefined), { once: true }),
  );
  const timer = setTimeout(
    () =>
      stop(
        "timeout",
        new DOMException(
          `Subagent ${invocation.id} timed out after ${timeoutMs} ms.`,
          "TimeoutError",
        ),
      ),
    timeoutMs,
  );
  const onAbort = () => stop("aborted", outer?.reason);
  outer?.addEventListener("abort", onAbort, { once: true });
  if (outer?.aborted) onAbort();
  try {
    // Aborted while the directory was being set up: do not start what would be stopped at once.
    if (reason !== undefined) return { kind: "stopped", reason };
    const running: Promise<RunOutcome> = (async () =>
      runner.run({ ...invocation, signal: controller.signal }))().then(
      (value) => ({ kind: "output", value }),
      (error: unknown) => ({ kind: "error", error }),
    );
    const first = await Promise.race([running, stopped]);
    if (first !== undefined && (reason === undefined || first.kind === "output")) return first;
    const why = reason ?? "aborted";
    const grace = runner.stopGraceMs ?? 0;
    if (grace <= 0) return { kind: "stopped", reason: why };
    const wait = delay(grace);
    const late = await Promise.race([running, wait.promise]);
    wait.cancel();
    return late !== undefined && late.kind === "error"
      ? { kind: "stopped", reason: why, error: late.error }
      : { kind: "stopped", reason: why };
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onAbort);
  }
}
