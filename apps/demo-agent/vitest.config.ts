import { defineConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// Without "import": vitest hands these conditions to Node as --conditions, and with "import" a
// CommonJS require() of a dual package (is-promise, under express's router, which the demo's A2A
// agent uses) gets its ES module. Vite adds "import" to the imports it resolves itself.
const conditions = ["@task-context/source", "node", "default"];

// The demo runs as a subprocess in its test (real stand-in server, real delivery service, real
// child processes): the shared time limits allow what a busy two-core machine needs.
export default defineConfig({
  ...shared,
  resolve: { conditions },
  ssr: { resolve: { conditions } },
});
