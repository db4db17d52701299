import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// The same package inside workerd, through the Workers Vitest integration. `nodejs_compat` is for
// vitest's own runner (it imports node:*); the package itself runs without it, which the raw
// workerd smoke test in runtime-tests/workerd-raw checks. The `browser` condition
// picks the AI SDK's Workers-safe builds, as wrangler's bundler does.
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
    setupFiles: ["src/test-support/log-warnings.ts"],
    testTimeout: 30_000,
  },
});
