import type { CollaborationEvent } from "@task-context/protocols/work-item";
import { CliError } from "../cli-error.ts";

/** Where the service is and who is asking. */
export interface ServiceTarget {
  /** `http://127.0.0.1:8787`. */
  url: string;
  /** The admin token (or an agent token, for the reads an agent may do). */
  token: string | undefined;
}

/** The service's error body: `{ error, code, issues? }`. */
interface ErrorBody {
  error?: unknown;
  code?: unknown;
  issues?: Array<{ path?: unknown; message?: unknown }>;
}

/** What to do about an error code of the service. */
function hintFor(status: number, code: string): string {
  if (status === 401)
    return "pass the admin token with --token or TASK_CONTEXT_TOKEN (`task-context serve` prints it)";
  if (status === 403) return "this needs the admin token, not an agent token";
  if (code === "RUN_NOT_FOUND") return "check the run id: `task-context run create` prints it";
  if (status === 400)
    return "fix the fields named above; the body is the POST /v1/runs body (docs/delivery-service-contract.md)";
  if (status === 429) return "wait a moment and try again";
  return "see docs/delivery-service-contract.md for what the service answers";
}

/** The error for a service answer that is not a success. */
export async function serviceError(response: Response): Promise<CliError> {
  let body: ErrorBody = {};
  try {
    body = (await response.json()) as ErrorBody;
  } catch {
    // Not the service's JSON: the status says enough.
  }
  const code = typeof body.code === "string" ? body.code : `HTTP_${response.status}`;
  const text = typeof body.error === "string" ? body.error.replace(/\.$/, "") : response.statusText;
  const issues = (body.issues ?? [])
    .map((issue) => `${String(issue.path ?? "")}: ${String(issue.message ?? "")}`)
    .join("; ");
  return new CliError({
    code: "CLI_SERVICE",
    message: `the service answered ${response.status} ${code}: ${text}${issues === "" ? "" : ` (${issues})`}`,
    hint: hintFor(response.status, code),
  });
}

/** The error for a service that could not be reached. */
export function unreachable(target: ServiceTarget, error: unknown): CliError {
  const reason = (error as { cause?: { code?: unknown } })?.cause?.code;
  return new CliError({
    code: "CLI_SERVICE",
    message: `cannot reach the delivery service at ${target.url}${typeof reason === "string" ? ` (${reason})` : ""}`,
    hint: "start it with `task-context serve`, or pass its address with --url or TASK_CONTEXT_URL",
    cause: error,
  });
}

/** Sends a request to the service; resolves to the response, or throws a {@link CliError}. */
export async function request(
  target: ServiceTarget,
  method: "GET" | "POST",
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (target.token !== undefined) headers.Authorization = `Bearer ${target.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(new URL(path, target.url), {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    throw unreachable(target, error);
  }
  if (!response.ok) throw await serviceError(response);
  return response;
}

/** A request whose answer is JSON. */
export async function requestJson<Answer>(
  target: ServiceTarget,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<Answer> {
  const response = await request(target, method, path, body === undefined ? {} : { body });
  return (await response.json()) as Answer;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** How many reconnections in a row `followEvents` tries before giving up. */
const MAX_RECONNECTS = 10;

/**
 * Follows a run's event stream (Server-Sent Events) live and calls `onEvent` for each event in
 * seq order, until `run.completed`: after a dropped connection it reconnects (after the
 * `retry:` the service sent) with `Last-Event-ID`, so no event is missed or repeated.
 */
export async function followEvents(
  target: ServiceTarget,
  runId: string,
  onEvent: (event: CollaborationEvent) => void,
  signal?: AbortSignal,
): Promise<"completed" | "stopped"> {
  let last = 0;
  let retryMs = 1000;
  let failures = 0;
  let connected = false;
  for (;;) {
    if (signal?.aborted) return "stopped";
    let response: Response;
    try {
      response = await request(target, "GET", `/v1/runs/${encodeURIComponent(runId)}/events`, {
        headers: { Accept: "text/event-stream", "Last-Event-ID": String(last) },
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (error) {
      if (signal?.aborted) return "stopped";
      // The service's own refusals (404, 401) and a first connection that fails end here.
      const refused = CliError.isInstance(error) && error.message.startsWith("the service");
      if (refused || !connected) throw error;
      if (++failures > MAX_RECONNECTS) throw error;
      await sleep(retryMs, signal);
      continue;
    }
    if (response.status === 204 || response.body === null) return "completed";
    failures = 0;
    connected = true;
    let buffer = "";
    try {
      for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
        buffer += chunk.replaceAll("\r\n", "\n");
        for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
          const lines = buffer.slice(0, end).split("\n");
          buffer = buffer.slice(end + 2);
          const retry = lines.find((line) => line.startsWith("retry:"));
          if (retry !== undefined) retryMs = Number(retry.slice(6).trim()) || retryMs;
          const data = lines
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).replace(/^ /, ""))
            .join("\n");
          if (data === "") continue;
          const event = JSON.parse(data) as CollaborationEvent;
          onEvent(event);
          last = event.seq;
          if (event.type === "run.completed") return "completed";
        }
      }
    } catch {
      if (signal?.aborted) return "stopped";
      // The connection dropped: resume after the last event seen.
    }
    await sleep(retryMs, signal);
  }
}
