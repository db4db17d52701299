import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Test files at once for a suite whose files mostly wait on a server, a process or the disk (the
 * delivery service, the CLI, the MCP servers): at least 3. Vitest's default, one fewer than the
 * cores, runs them one by one on a two-core machine. CPU-bound suites keep the default.
 */
export const WAITING_SUITE_WORKERS = Math.max(3, availableParallelism() - 1);

/**
 * Shared test settings: tests run on `src/` through the source export condition, without a build.
 * A test's and a hook's time limits only bound a failure (a hang): generous, so that a busy
 * two-core machine (CI runs the suites side by side) does not fail a test that is merely slow.
 */
export default defineConfig({
  resolve: { conditions: ["@task-context/source", "node", "import", "default"] },
  ssr: { resolve: { conditions: ["@task-context/source", "node", "import", "default"] } },
  test: {
    include: ["src/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
