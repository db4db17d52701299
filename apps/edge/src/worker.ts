// The delivery service on Cloudflare Workers: this router Worker runs the same app as Node, and
// each run lives in its own Durable Object (RunObject, SQLite storage). wrangler.jsonc binds
// them. Nothing here may reach a node:* module: the Worker runs with no_nodejs_compat.
import type { ErrorBody } from "./contract/schemas.ts";
import type { App } from "./routes/route-context.ts";
import { createRouter } from "./workers/router.ts";
import type { WorkerEnv } from "./workers/worker-env.ts";

export { RunObject } from "./workers/run-object.ts";

/** One app per isolate and env: its in-memory rate-limit windows last across requests. */
const routers = new WeakMap<WorkerEnv, App>();

export default {
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
} satisfies ExportedHandler<WorkerEnv>;

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
