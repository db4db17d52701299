import { ArgumentError } from "@task-context/core";
import { injectTraceContext } from "@task-context/core/tracing";
import { errorStatus } from "./generated/error-codes.ts";
import type { ErrorBody } from "./generated/schemas.ts";
import { type ErrorCode, ServiceError } from "./service-error.ts";
import { sleep } from "./sleep.ts";

/** A `fetch` function: the runtime's own (the default), or one a test or a framework gives. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * When a request is sent again. A `429 RATE_LIMITED` is sent again after the `Retry-After` the
 * service asked for (1 s when it gave none); a network failure only for the requests the service
 * applies at most once whatever happens — completions and failures, which carry an
 * `Idempotency-Key` — after `backoffMs`, doubled each time.
 */
export interface RetryOptions {
  /** How many times one request is sent again. @default 3 */
  retries?: number;
  /** The longest `Retry-After` waited for, in ms; a longer one is thrown at once. @default 60_000 */
  maxDelayMs?: number;
  /** The wait before sending again after the first network failure, in ms. @default 500 */
  backoffMs?: number;
}

/** Where the service is, who is asking, and how requests are sent. */
export interface TransportOptions {
  /** The service's address, e.g. `http://127.0.0.1:8787` (a path prefix is kept). */
  url: string;
  /** The bearer token: the admin token or an agent token; none for the public endpoints. */
  token?: string | undefined;
  /** The `fetch` to send with. @default globalThis.fetch */
  fetch?: Fetch | undefined;
  /** Aborts every request of the client (each method also takes its own). */
  signal?: AbortSignal | undefined;
  /** When requests are sent again; `false`: never. @default { retries: 3, maxDelayMs: 60_000, backoffMs: 500 } */
  retry?: RetryOptions | false | undefined;
}

/** One request of the contract. */
export interface Call {
  method: "GET" | "POST";
  /** The path, its parameters already encoded. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Sent as JSON; no body when undefined. */
  body?: unknown;
  headers?: Record<string, string>;
  /** @default "application/json" */
  accept?: string;
  signal?: AbortSignal | undefined;
  /** Whether a network failure may be answered by sending the request again. */
  resend?: boolean;
}

/**
 * Sends a call and reads its successful answer with `read`: refusals are thrown as
 * {@link ServiceError}s, 429 and (for `resend` calls) network failures are retried.
 */
export type Send = <T>(call: Call, read: (response: Response) => Promise<T>) => Promise<T>;

const knownCodes: ReadonlySet<string> = new Set(Object.keys(errorStatus));

/** The lowest-level reason of a failed fetch: `ECONNREFUSED`, or the message. */
function reasonOf(error: unknown): string {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") return code;
    if (!(cause.cause instanceof Error)) return cause.message;
    cause = cause.cause;
  }
  return String(error);
}

/** Seconds from a `Retry-After` header (a whole number of seconds, as the service sends). */
function retryAfterOf(response: Response): number | undefined {
  const header = response.headers.get("Retry-After")?.trim();
  return header !== undefined && /^\d{1,9}$/.test(header) ? Number(header) : undefined;
}

/** The error for an answer that is not a success. */
async function errorOf(response: Response): Promise<ServiceError> {
  const status = response.status;
  const retryAfter = retryAfterOf(response);
  let body: Partial<Record<keyof ErrorBody, unknown>> | undefined;
  try {
    const parsed: unknown = JSON.parse(await response.text());
    if (typeof parsed === "object" && parsed !== null) body = parsed;
  } catch {
    // Not the service's JSON: reported below as an unexpected answer.
  }
  const message = typeof body?.error === "string" ? body.error : undefined;
  if (typeof body?.code === "string" && knownCodes.has(body.code) && message !== undefined) {
    return new ServiceError({
      code: body.code as ErrorCode,
      message,
      status,
      ...(Array.isArray(body.issues) ? { issues: body.issues } : {}),
      ...(retryAfter === undefined ? {} : { retryAfter }),
    });
  }
  return new ServiceError({
    code: "UNEXPECTED_RESPONSE",
    message:
      message ??
      `The service answered ${status} ${response.statusText} without the contract's error body { error, code }. Check that the URL is the delivery service's.`,
    status,
  });
}

/** The signal that aborts when any of `signals` does. */
export function anySignal(signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((signal) => signal !== undefined);
  return present.length <= 1 ? present[0] : AbortSignal.any(present);
}

/** The sender of a client: its address, token, `fetch`, signal and retry rules. */
export function createSend(options: TransportOptions): Send {
  const base = URL.canParse(options.url) ? new URL(options.url) : undefined;
  if (base?.protocol !== "http:" && base?.protocol !== "https:") {
    throw new ArgumentError({
      argument: "url",
      message: `${JSON.stringify(options.url)} is not an absolute http or https URL. Pass the service's address, e.g. http://127.0.0.1:8787.`,
    });
  }
  const prefix = base.href.replace(/\/+$/, "");
  const retry = options.retry === false ? { retries: 0 } : (options.retry ?? {});
  const retries = retry.retries ?? 3;
  const maxDelayMs = retry.maxDelayMs ?? 60_000;
  const backoffMs = retry.backoffMs ?? 500;

  return async (call, read) => {
    const signal = anySignal([options.signal, call.signal]);
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) query.set(name, String(value));
    }
    const search = query.toString();
    const url = `${prefix}${call.path}${search === "" ? "" : `?${search}`}`;
    const headers: Record<string, string> = {
      Accept: call.accept ?? "application/json",
      ...call.headers,
    };
    if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    // The caller's span, as W3C traceparent/tracestate: the service's spans continue its trace,
    // and a run created in it carries it to its work items. Nothing without an SDK.
    injectTraceContext(headers);
    const init: RequestInit = {
      method: call.method,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      ...(signal === undefined ? {} : { signal }),
    };
    const send = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      let response: Response;
      try {
        response = await send(url, init);
        if (response.ok) return await read(response);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (ServiceError.isInstance(error)) throw error;
        if (call.resend === true && attempt < retries) {
          await sleep(backoffMs * 2 ** attempt, signal);
          continue;
        }
        throw new ServiceError({
          code: "NETWORK_ERROR",
          message: `No answer from the delivery service at ${prefix} (${reasonOf(error)}). Check that it runs and that the URL is right.`,
          cause: error,
        });
      }
      const error = await errorOf(response);
      const waitMs = (error.retryAfter ?? 1) * 1000;
      if (error.code !== "RATE_LIMITED" || attempt >= retries || waitMs > maxDelayMs) throw error;
      await sleep(waitMs, signal);
    }
  };
}

/** Reads a JSON answer. */
export async function readJson<T>(response: Response): Promise<T> {
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new ServiceError({
      code: "UNEXPECTED_RESPONSE",
      message: `The service answered ${response.status} with a body that is not JSON. Check that the URL is the delivery service's.`,
      status: response.status,
      cause: error,
    });
  }
}
