// A small client for the delivery service with plain fetch, as any remote agent would write it.
import { context, propagation } from "@opentelemetry/api";

/** A refusal of the service: its HTTP status and its `{ error, code }` body. */
export class ServiceRefusal extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, body: { error?: string; code?: string }) {
    super(`${body.code ?? `HTTP ${status}`}: ${body.error ?? "no message"}`);
    this.status = status;
    this.code = body.code ?? "";
  }
}

/** Calls the service at `url` with `token`; 204 answers undefined. */
export function serviceClient(url: string, token: string) {
  return async function call<T>(
    method: "GET" | "POST",
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    };
    // The active span as traceparent (W3C trace context): the service's spans continue it, and
    // a run created in it hands it to every work item (trace_context).
    propagation.inject(context.active(), headers);
    const response = await fetch(new URL(path, url), {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal === undefined ? {} : { signal }),
    });
    if (response.status === 204) return undefined as T;
    const answer: unknown = await response.json();
    if (!response.ok)
      throw new ServiceRefusal(response.status, answer as { error?: string; code?: string });
    return answer as T;
  };
}

/** The client's call function. */
export type ServiceCall = ReturnType<typeof serviceClient>;
