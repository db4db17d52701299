import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { VITEST_RUNNER_MINIFLARE, workerdSuites } from "../../vitest.workerd.shared.ts";

// The same package inside workerd, through the Workers Vitest integration.
export default workerdSuites(cloudflareTest({ miniflare: VITEST_RUNNER_MINIFLARE }), {
  setupFiles: ["src/test-support/log-warnings.ts"],
});
