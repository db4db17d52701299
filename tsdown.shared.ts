import type { UserConfig } from "tsdown";

/**
 * What every published package builds the same way: ESM with declarations and source maps, for
 * any runtime (no platform shims), `node:*` built-ins and `#` package imports left to run time,
 * not minified.
 *
 * rolldown drops a statement whose only content is a call it holds free of effects, even when
 * the call's throw was the point: `decodeURIComponent(run)` in a try/catch vanished from the
 * built service, which answered 404 where the source answered 400. Turning tree-shaking off keeps
 * such statements but leaves bare imports between chunks that every user's bundler warns about
 * (`"sideEffects": false`). So the lint rule lint/result-unused.grit refuses those calls in the
 * source, packages/server/test/built/bundler-drops.test.ts fails when rolldown drops one the rule
 * does not name, and the contract suites run against the built bin and Worker as well.
 */
export const sharedBuildOptions = {
  format: "esm",
  platform: "neutral",
  target: "es2022",
  dts: true,
  sourcemap: true,
  clean: true,
  minify: false,
  deps: { neverBundle: [/^node:/, /^#/] },
} satisfies UserConfig;
