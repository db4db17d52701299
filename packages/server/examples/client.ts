// A small client for the delivery service with plain fetch: JSON in and out, the bearer token,
// 429 answered by waiting Retry-After, every other refusal thrown as a ServiceError.

//#region client
/** Where the service runs: `wrangler dev` and the Node service both default to port 8787. */
export const service = process.env.TASK_CONTEXT_URL ?? "http://127.0.0.1:8787";

/** Every error the service answers with: `{ error, code, issues? }`. */
export interface ErrorBody {
  error: string;
  code: string;
  issues?: { path: string; message: string }[];
}

/** A refusal of the service: its HTTP status and its error body. */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: ErrorBody["issues"];

  constructor(status: number, body: ErrorBody) {
    super(`${body.code}: ${body.error}`);
    this.status = status;
    this.code = body.code;
    this.issues = body.issues;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends one request with `token` and answers its JSON body; waits and sends again on 429. For
 * claim-next, which answers 204 when nothing is on offer, ask for `T | undefined`.
 */
export async function call<T>(
  token: string,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  for (;;) {
    const response = await fetch(new URL(path, service), {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status === 429) {
      await sleep(Number(response.headers.get("Retry-After") ?? "1") * 1000);
      continue;
    }
    if (response.status === 204) return undefined as T;
    const answer: unknown = await response.json();
    if (!response.ok) throw new ServiceError(response.status, answer as ErrorBody);
    return answer as T;
  }
}
//#endregion
