// The HTTP entry of every operation, derived from the contract's registry: one route per
// operation at its method and path (a path's definition is in packages/contract/src/operations/),
// which authenticates the request, admits its caller, refuses a URL that is not UTF-8 and a body
// that is not JSON, runs the operation through the executor and writes its answer as the
// definition's output says.
import {
  type OperationDefinition,
  type OperationId,
  type Operations,
  operations,
} from "@task-context/contract";
import type { Context } from "hono";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { admit } from "../execution/admit.ts";
import { executeOperation } from "../execution/execute-operation.ts";
import type { ServiceContext } from "../execution/service-context.ts";
import type { App, AppEnv } from "./app-env.ts";
import { bearerToken, type Caller } from "./auth.ts";
import { securedAnswer, securedHeaders } from "./secure-headers.ts";
import { requireUtf8Url } from "./url-text.ts";
import { decodeUtf8Body } from "./utf8-body.ts";
import { requireJsonMediaType } from "./validation.ts";
import { viewerOf } from "./view-link-caller.ts";
import { anySignal } from "./wait.ts";

/** Hono's form of a path: `/v1/runs/{run_id}` → `/v1/runs/:run_id`. */
export function routePath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ":$1");
}

/** Whether the operation checks its caller itself (a page: its errors are pages too). */
const checksItsCaller = (operation: OperationDefinition) =>
  operation.audience === "admin or view link";

/**
 * The request's caller, for an operation that has one: a view link's viewer (its `?view=` token,
 * on an operation that takes view links, without Authorization), otherwise whom the bearer token
 * authenticates (401 without a valid one).
 */
async function requestCaller(
  c: Context<AppEnv>,
  operation: OperationDefinition,
  service: ServiceContext,
): Promise<Caller | undefined> {
  if (operation.audience === "public" || checksItsCaller(operation)) return undefined;
  const runId = c.req.param("run_id");
  const view = c.req.query("view");
  return operation.viewLinks === true &&
    runId !== undefined &&
    view !== undefined &&
    bearerToken(c) === undefined
    ? viewerOf(service, view, runId)
    : service.authenticate(c);
}

/**
 * The request's JSON body and its size: 415 for a body not declared as JSON, 400 for bytes that
 * are not UTF-8 or text that is not JSON (the executor checks the rest, as for every entry).
 */
async function jsonBody(c: Context<AppEnv>): Promise<{ value: unknown; bytes: number }> {
  requireJsonMediaType(c.req.header("Content-Type"));
  const bytes = await c.req.arrayBuffer();
  const text = decodeUtf8Body(bytes);
  try {
    return { value: JSON.parse(text), bytes: bytes.byteLength };
  } catch {
    throw new DeliveryError({
      code: "INVALID_REQUEST",
      message:
        "The request body is not valid JSON. Send a JSON object with Content-Type: application/json.",
    });
  }
}

/** The query string's parameters, a repeated one as an array of its values. */
function queryOf(c: Context<AppEnv>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(c.req.queries()).map(([name, values]) => [
      name,
      values.length === 1 ? (values[0] as string) : values,
    ]),
  );
}

/** The headers of a JSON answer, and of one that may not be cached. */
const jsonHeaders = securedHeaders({ "content-type": "application/json" });
const noStoreJsonHeaders = securedHeaders({
  "cache-control": "no-store",
  "content-type": "application/json",
});

/** The HTTP answer of `operation` to `answer`, as its output declares. */
function respond(c: Context<AppEnv>, operation: OperationDefinition, answer: unknown): Response {
  if (answer instanceof Response) return answer;
  const { output } = operation;
  if (output.kind === "text") {
    if (output.mediaType === "text/html") return c.html(answer as string);
    return c.body(answer as string, output.status, {
      "Content-Type": `${output.mediaType}; charset=utf-8`,
    });
  }
  if (output.kind !== "json") {
    throw new Error(`${operation.id}, a page, answered without a Response.`);
  }
  if (answer === undefined && output.empty !== undefined) return c.body(null, output.empty.status);
  return securedAnswer(
    JSON.stringify(answer),
    output.status,
    output.noStore === true ? noStoreJsonHeaders : jsonHeaders,
  );
}

/**
 * Where a request's operation runs. Its signal (the client gone, or the service stopping) is
 * made when a handler first asks for it — only a wait does: on Node the request's own signal is
 * an AbortController made on demand, and `AbortSignal.any` follows both.
 */
function requestContext(c: Context<AppEnv>, service: ServiceContext) {
  let signal: AbortSignal | undefined;
  return {
    service,
    http: c,
    get signal() {
      signal ??= anySignal([c.req.raw.signal, service.shutdown]);
      return signal;
    },
  };
}

/** Answers one request for the operation `id`. */
async function answerRequest(
  c: Context<AppEnv>,
  id: OperationId,
  service: ServiceContext,
): Promise<Response> {
  const operation: Operations[OperationId] = operations[id];
  const caller = await requestCaller(c, operation, service);
  if (!checksItsCaller(operation)) {
    admit(operation, caller, c.req.param("run_id"));
    requireUtf8Url(c);
  }
  const input: OperationDefinition["input"] = "input" in operation ? operation.input : undefined;
  const body = input?.body === undefined ? undefined : await jsonBody(c);
  const answer = await executeOperation(
    id,
    {
      caller,
      path: c.req.param(),
      ...(input?.query === undefined ? {} : { query: queryOf(c) }),
      ...(body === undefined ? {} : { body: body.value, bodyBytes: body.bytes }),
      idempotencyKey: c.req.header("Idempotency-Key"),
    },
    requestContext(c, service),
  );
  return respond(c, operation, answer);
}

/**
 * Registers a route for every operation of the contract, at its method and path (the paths
 * literally as the contract writes them, `{name}` for a parameter).
 */
export function operationRoutes(app: App, service: ServiceContext): void {
  for (const id of Object.keys(operations) as OperationId[]) {
    const { method, path } = operations[id];
    app.on(method, routePath(path), (c) => answerRequest(c, id, service));
  }
}
