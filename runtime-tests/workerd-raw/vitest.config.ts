import { defineConfig } from "vitest/config";

// The raw workerd smoke test runs on Node 24; the Worker it starts runs on workerd.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["smoke.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
