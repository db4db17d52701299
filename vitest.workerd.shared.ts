import { defineConfig, type ViteUserConfig } from "vitest/config";

/**
 * How modules resolve inside workerd: a package's own source, then the Workers builds of its
 * dependencies (the `browser` condition picks the AI SDK's Workers-safe builds, as wrangler's
 * bundler does).
 */
export const WORKERD_CONDITIONS = [
  "@task-context/source",
  "workerd",
  "worker",
  "browser",
  "import",
  "default",
];

/**
 * The Miniflare settings of a package suite that runs through the Workers Vitest integration:
 * `nodejs_compat` is for vitest's own runner (it imports node:*); the packages themselves run
 * without it, which the raw workerd smoke test in runtime-tests/workerd-raw checks.
 */
export const VITEST_RUNNER_MINIFLARE = {
  compatibilityDate: "2026-11-01",
  compatibilityFlags: ["nodejs_compat"],
};

/**
 * A package's suites inside workerd: `workers/**\/*.test.ts` through `plugin` (the package's
 * `cloudflareTest(…)`), with {@link WORKERD_CONDITIONS}; `test` adds to or overrides the settings.
 */
export function workerdSuites(
  plugin: NonNullable<ViteUserConfig["plugins"]>[number],
  test: NonNullable<ViteUserConfig["test"]> = {},
): ViteUserConfig {
  return defineConfig({
    plugins: [plugin],
    resolve: { conditions: WORKERD_CONDITIONS },
    ssr: { resolve: { conditions: WORKERD_CONDITIONS } },
    test: { include: ["workers/**/*.test.ts"], testTimeout: 30_000, ...test },
  });
}
