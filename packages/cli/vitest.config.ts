import { defineConfig, mergeConfig } from "vitest/config";
import shared, { WAITING_SUITE_WORKERS } from "../../vitest.shared.ts";

// Without "import": vitest hands these conditions to Node as --conditions, and with "import" a
// CommonJS require() of a dual package (is-promise, under express's router, which the probe's A2A
// agent uses) gets its ES module. Vite adds "import" to the imports it resolves itself.
const conditions = ["@task-context/source", "node", "default"];

// The tests run the built binary (dist/cli.js) as a subprocess: the global setup builds it once.
export default defineConfig({
  ...mergeConfig(
    shared,
    defineConfig({
      test: {
        include: ["src/**/*.test.ts", "test/**/*.test.ts"],
        globalSetup: ["test/build-once.ts"],
        maxWorkers: WAITING_SUITE_WORKERS,
      },
    }),
  ),
  resolve: { conditions },
  ssr: { resolve: { conditions } },
});
