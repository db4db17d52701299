// The contract suites' service on workerd: the router Worker's app (createRouter, as
// src/workers.ts builds it) in the test's isolate, over the run objects of wrangler.jsonc (real
// Durable Objects, SQLite storage, Workers RPC). Each service has its own clock: the router's
// is injected, each of its runs' objects is set to it over RPC (test/workers/entry.ts).
import { env } from "cloudflare:workers";
import { DurableObjectStore } from "../../src/workers/durable-object-store.ts";
import { createRouter } from "../../src/workers/router.ts";
import type { WorkerEnv } from "../../src/workers/worker-env.ts";
import {
  limitsOf,
  manualClock,
  type Service,
  type ServiceOptions,
  type StartService,
} from "../contract/harness.ts";
import type { RunObject } from "./entry.ts";

/** The run objects, with the test clock's method. */
export const runs = env.RUNS as unknown as DurableObjectNamespace<RunObject>;

/** The object of a run. */
export const runObject = (runId: string) => runs.get(runs.idFromName(runId));

export const adminToken = "workers-service-admin-token-0123456789";

/**
 * The router and the run objects on workerd, with the service's own clock and limits, over
 * `store` (tests may watch its calls) and the Worker's variables in `variables`.
 */
export async function workersService(
  options: ServiceOptions = {},
  store = new DurableObjectStore(env.RUNS, env.RUN_DIRECTORY),
  variables: Omit<WorkerEnv, "RUNS" | "TASK_CONTEXT_ADMIN_TOKEN"> = {},
): Promise<Service> {
  const clock = manualClock();
  const created: string[] = [];
  const createRun = store.createRun.bind(store);
  store.createRun = async (runId, input, createOptions) => {
    created.push(runId);
    await runObject(runId).setClock(clock.now());
    return createRun(runId, input, createOptions);
  };
  const app = createRouter(
    {
      ...variables,
      ...(options.secrets === undefined ? {} : { TASK_CONTEXT_SECRETS: options.secrets }),
      RUNS: env.RUNS,
      TASK_CONTEXT_ADMIN_TOKEN: adminToken,
    },
    {
      store,
      clock: clock.now,
      limits: limitsOf(options),
    },
  );
  return {
    baseUrl: "http://service.test",
    adminToken,
    fetch: async (url, init) => app.request(url, init),
    async advance(milliseconds) {
      clock.advance(milliseconds);
      await Promise.all(created.map((runId) => runObject(runId).setClock(clock.now())));
    },
    async stop() {},
  };
}

/** The contract suites' service on workerd. */
export const onWorkers: StartService = (options) => workersService(options);
