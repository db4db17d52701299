/**
 * The delivery service on Cloudflare Workers: a router Worker runs the same app as Node, and each
 * run lives in its own Durable Object (`RunObject`, SQLite storage). A deployable Worker is this
 * module re-exported, and a `wrangler.jsonc` that binds `RUNS` to `RunObject` (and
 * `RUN_DIRECTORY` to `RunDirectory`, the runs directory `GET /v1/runs` reads):
 *
 * ```ts source="../examples/workers/worker.ts#worker"
 * // src/worker.ts
 * export { default, RunObject } from "@task-context/server/workers";
 * ```
 *
 * Nothing here reaches a node:* module: the Worker runs with or without nodejs_compat.
 *
 * @module
 */
import type { ErrorBody } from "@task-context/contract";
import type { App } from "./http/app-env.ts";
import { createRouter } from "./workers/router.ts";
import type { WorkerEnv } from "./workers/worker-env.ts";

export { DurableObjectStore } from "./workers/durable-object-store.ts";
export { createRouter, type RouterOptions } from "./workers/router.ts";
export { RunDirectory } from "./workers/run-directory.ts";
export { RunObject } from "./workers/run-object.ts";
export type { WorkerEnv } from "./workers/worker-env.ts";

/** One app per isolate and env: its in-memory rate-limit windows last across requests. */
const routers = new WeakMap<WorkerEnv, App>();

/** The router Worker: `export { default } from "@task-context/server/workers"`. */
const worker: { fetch: ExportedHandlerFetchHandler<WorkerEnv> } = {
  fetch(request, env, ctx) {
    let router = routers.get(env);
    if (router === undefined) {
      try {
        router = createRouter(env);
      } catch (error) {
        console.error("the Worker is not configured:", error);
        return misconfigured(error);
      }
      routers.set(env, router);
    }
    return router.fetch(request, env, ctx);
  },
};

export default worker;

function misconfigured(error: unknown): Response {
  // The variable's name only: its value stays in the operator's logs.
  const variable = (error as { argument?: unknown } | null)?.argument;
  const which =
    typeof variable === "string"
      ? `${variable} is missing or malformed`
      : "a variable is missing or malformed";
  return Response.json(
    {
      error: `The service is not configured: ${which}. Its operator must set the Worker's variables (the Worker's logs say why).`,
      code: "SERVICE_UNAVAILABLE",
    } satisfies ErrorBody,
    { status: 503 },
  );
}
