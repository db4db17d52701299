import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// The main entry inside workerd, through the Workers Vitest integration: createTaskContextServer
// behind the SDK's web-standard handler on a memory workspace. `nodejs_compat` is for vitest's own
// runner (it imports node:*); the `workerd` condition picks the SDK's Workers build (a JSON Schema
// validator without code generation).
const conditions = ["@task-context/source", "workerd", "worker", "browser", "import", "default"];

export default defineConfig({
  plugins: [
    cloudflareTest({
      miniflare: { compatibilityDate: "2026-11-01", compatibilityFlags: ["nodejs_compat"] },
    }),
  ],
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["workers/**/*.test.ts"],
    testTimeout: 30_000,
  },
});
