import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import suites from "../suites.json" with { type: "json" };

// The suites inside workerd through the Workers Vitest integration, on the built packages as
// Workers resolve them. `nodejs_compat` is for vitest's own runner (it imports node:*), and the
// integration allows code generation from strings: the raw workerd smoke test (../workerd-raw)
// proves the packages need neither.
const conditions = ["workerd", "worker", "browser", "import", "default"];

export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  plugins: [
    cloudflareTest({
      miniflare: { compatibilityDate: "2026-11-01", compatibilityFlags: ["nodejs_compat"] },
    }),
  ],
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["packages/*/conformance/*.conformance.ts"],
    exclude: Object.keys(suites.notOnWorkerd),
    // The suites share no state: one Worker for all files instead of a fresh one per file.
    isolate: false,
    testTimeout: 30_000,
  },
});
