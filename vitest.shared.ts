import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Test files at once: at least 3. Vitest's default (one fewer than the cores) runs the files of a
 * two-core machine one by one, while most of them wait on a server, a process or the disk.
 */
export const MAX_TEST_WORKERS = Math.max(3, availableParallelism() - 1);

/** Shared test settings: tests run on `src/` through the source export condition, without a build. */
export default defineConfig({
  resolve: { conditions: ["@task-context/source", "node", "import", "default"] },
  ssr: { resolve: { conditions: ["@task-context/source", "node", "import", "default"] } },
  test: {
    include: ["src/**/*.test.ts"],
    testTimeout: 30_000,
    maxWorkers: MAX_TEST_WORKERS,
  },
});
