import { defineConfig, mergeConfig } from "vitest/config";
import shared, { WAITING_SUITE_WORKERS } from "../../vitest.shared.ts";

// The tests run the built binary (dist/cli.js) as a subprocess: the global setup builds it once.
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      globalSetup: ["test/build-once.ts"],
      maxWorkers: WAITING_SUITE_WORKERS,
    },
  }),
);
