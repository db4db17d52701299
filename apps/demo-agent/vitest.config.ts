import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// Without "import": vitest hands these conditions to Node as --conditions, and with "import" a
// CommonJS require() of a dual package (is-promise, under express's router, which the demo's A2A
// agent uses) gets its ES module. Vite adds "import" to the imports it resolves itself.
const conditions = ["@task-context/source", "node", "default"];

// The demo runs as a subprocess in its test (real stand-in server, real delivery service, real
// child processes): allow it the time a busy two-core machine needs.
export default defineConfig({
  ...mergeConfig(shared, defineConfig({ test: { testTimeout: 120_000, hookTimeout: 120_000 } })),
  resolve: { conditions },
  ssr: { resolve: { conditions } },
});
