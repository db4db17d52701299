import type { WorkerEnv } from "../../src/workers/worker-env.ts";

declare global {
  namespace Cloudflare {
    /** `env` of `cloudflare:workers` in the tests: the Worker's bindings and variables. */
    interface Env extends WorkerEnv {
      /** A Rate Limiting binding with a small limit (vitest.workers.config.ts). */
      TEST_ADDRESS_RATE_LIMITER: RateLimit;
    }
    interface GlobalProps {
      /** `exports` of `cloudflare:workers`: the Worker the tests run. */
      mainModule: typeof import("./entry.ts");
    }
  }
}
