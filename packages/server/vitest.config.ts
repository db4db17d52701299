import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import shared, { WAITING_SUITE_WORKERS } from "../../vitest.shared.ts";

// Without "import": vitest hands these conditions to Node as --conditions, and with "import" a
// CommonJS require() of a dual package (is-promise, under express's router, which the tests' A2A
// agents use) gets its ES module. Vite adds "import" to the imports it resolves itself.
const conditions = ["@task-context/source", "node", "default"];

export default defineConfig({
  ...mergeConfig(
    shared,
    defineConfig({
      test: {
        include: ["test/**/*.test.ts", "src/**/*.test.ts"],
        // Inside workerd: vitest.workers.config.ts; in chromium: vitest.browser.config.ts.
        exclude: [...configDefaults.exclude, "test/workers/**", "test/browser/**"],
        maxWorkers: WAITING_SUITE_WORKERS,
        // Agent cards the contract suite's A2A cases register (the workerd suites start them too).
        globalSetup: ["test/a2a/card-hosts-setup.ts"],
      },
    }),
  ),
  resolve: { conditions },
  ssr: { resolve: { conditions } },
});
