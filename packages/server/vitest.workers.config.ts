import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { workerdSuites } from "../../vitest.workerd.shared.ts";

// The suites inside workerd (the Workers Vitest integration): the router and the run objects of
// wrangler.jsonc, Durable Object SQLite, alarms. The Worker is test/workers/entry.ts (the real
// one with a clock the tests move). No nodejs_compat here: wrangler.jsonc has no_nodejs_compat,
// and workerd refuses both. Storage is isolated per test file.
export default workerdSuites(
  cloudflareTest({
    main: "./test/workers/entry.ts",
    wrangler: { configPath: "./wrangler.jsonc" },
    miniflare: {
      bindings: {
        TASK_CONTEXT_ADMIN_TOKEN: "workers-entry-admin-token-0123456789",
        // The webhook base of A2A push notifications (test/workers/a2a-push.test.ts): only an
        // agent whose card offers them is affected; the test posts what it sent to the router.
        TASK_CONTEXT_PUBLIC_URL: "https://tasks.example",
      },
      // A small limit for the binding's test (wrangler.jsonc's ADDRESS_RATE_LIMITER stays).
      ratelimits: {
        TEST_ADDRESS_RATE_LIMITER: { namespace_id: "1999", simple: { limit: 3, period: 60 } },
      },
    },
  }),
  // The A2A agent the run objects dispatch to runs in Node, beside workerd (test/workers/a2a.test.ts).
  { include: ["test/workers/**/*.test.ts"], globalSetup: ["test/workers/a2a-agent-setup.ts"] },
);
