import { defineConfig } from "vitest/config";

/** Shared test settings: tests run on `src/` through the source export condition, without a build. */
export default defineConfig({
  resolve: { conditions: ["@task-context/source", "node", "import", "default"] },
  ssr: { resolve: { conditions: ["@task-context/source", "node", "import", "default"] } },
  test: {
    include: ["src/**/*.test.ts"],
    testTimeout: 30_000,
  },
});
