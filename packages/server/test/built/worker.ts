// The Worker the built-Worker suites run under `wrangler dev`: this package's built ./workers
// entry (dist/, as a user's Worker imports it), bundled by wrangler, on wrangler's own workerd.
// Requests without `x-test-service` take the production path (`export default` of
// @task-context/server/workers). The suites' services each have a router of their own —
// `createRouter` of the built entry with the service's options and a clock the tests move — and
// say which with that header; the run objects take the service's time over RPC (`setClock`).
import { propagation } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import worker, {
  RunObject as BuiltRunObject,
  createRouter,
  DurableObjectStore,
  RunDirectory,
  type WorkerEnv,
} from "@task-context/server/workers";

export { RunDirectory };

export class RunObject extends BuiltRunObject {
  #now: number | undefined;

  protected override now(): number {
    return this.#now ?? Date.now();
  }

  /** From now on, the object's time is `now` (milliseconds since the epoch) until set again. */
  async setClock(now: number): Promise<void> {
    this.#now = now;
  }
}

/** What the suites ask a service to start with (test/contract/harness.ts ServiceOptions). */
interface ServiceOptions {
  rateLimit?: { requests: number; windowMs: number } | false;
  bodyBytes?: number;
  keepAliveMs?: number;
  recheckMs?: number;
  secrets?: "redact" | "refuse" | "allow";
  tracePropagator?: "w3c";
}

interface TestService {
  now: number;
  runs: string[];
  router: ReturnType<typeof createRouter>;
}

const services = new Map<string, TestService>();
const SERVICE_HEADER = "x-test-service";

function runObject(env: WorkerEnv, runId: string) {
  const runs = env.RUNS as unknown as DurableObjectNamespace<RunObject>;
  return runs.get(runs.idFromName(runId));
}

function startService(env: WorkerEnv, options: ServiceOptions): string {
  // The isolate's one global propagator, as the suites' services start one after another: the
  // W3C one for a service that asks for it, as an OpenTelemetry SDK registers it, else none.
  if (options.tracePropagator === "w3c") {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  } else {
    propagation.disable();
  }
  const id = crypto.randomUUID();
  const store = new DurableObjectStore(env.RUNS, env.RUN_DIRECTORY);
  const service: TestService = {
    now: Date.UTC(2026, 10, 20, 10, 0, 0),
    runs: [],
    router: createRouter(
      {
        ...env,
        ...(options.secrets === undefined ? {} : { TASK_CONTEXT_SECRETS: options.secrets }),
      },
      {
        store,
        clock: () => service.now,
        limits: {
          rateLimit: options.rateLimit ?? false,
          ...(options.bodyBytes === undefined ? {} : { bodyBytes: options.bodyBytes }),
          ...(options.keepAliveMs === undefined ? {} : { keepAliveMs: options.keepAliveMs }),
          ...(options.recheckMs === undefined ? {} : { recheckMs: options.recheckMs }),
        },
      },
    ),
  };
  const createRun = store.createRun.bind(store);
  store.createRun = async (runId, input, createOptions) => {
    service.runs.push(runId);
    await runObject(env, runId).setClock(service.now);
    return createRun(runId, input, createOptions);
  };
  services.set(id, service);
  return id;
}

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname === "/__test/services" && request.method === "POST") {
      return Response.json({ id: startService(env, await request.json()) });
    }
    const id = request.headers.get(SERVICE_HEADER);
    if (id === null) return worker.fetch(request, env, ctx);
    const service = services.get(id);
    if (service === undefined) return new Response(`no test service ${id}`, { status: 500 });
    if (pathname === "/__test/advance" && request.method === "POST") {
      const { milliseconds } = (await request.json()) as { milliseconds: number };
      service.now += milliseconds;
      await Promise.all(service.runs.map((runId) => runObject(env, runId).setClock(service.now)));
      return new Response(null, { status: 204 });
    }
    const headers = new Headers(request.headers);
    headers.delete(SERVICE_HEADER);
    return service.router.fetch(new Request(request, { headers }), env, ctx);
  },
} satisfies ExportedHandler<WorkerEnv>;
