import { defineConfig } from "vitest/config";

// The deployable app as a user has it: @task-context/server from its built dist/ (no source
// condition), wrangler bundling the Worker, node running the Node entry.
export default defineConfig({
  test: { include: ["test/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000 },
});
