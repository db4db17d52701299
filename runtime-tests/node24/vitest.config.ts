import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The suites on Node 24 with vitest, on the built packages as Node resolves them: the
// `@task-context/source` condition the unit tests use is left out on purpose.
const conditions = ["node", "import", "default"];

export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["packages/*/conformance/*.conformance.ts"],
    // The suites share no state: one worker for all files instead of a fresh one per file.
    isolate: false,
    testTimeout: 30_000,
  },
});
