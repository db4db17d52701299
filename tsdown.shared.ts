import type { UserConfig } from "tsdown";

/**
 * What every published package builds the same way: ESM with declarations and source maps, for
 * any runtime (no platform shims), `node:*` built-ins and `#` package imports left to run time.
 *
 * Neither tree-shaking nor minification: the bundler must not decide which of our statements have
 * effects. With them on, rolldown dropped `decodeURIComponent(run)` inside a try/catch (it holds
 * the call free of side effects, though its throw was the point), and the built service answered
 * 404 where the source answers 400. What ships is our code as written, statement for statement;
 * the apps that bundle it (a Worker, a site) tree-shake it themselves. The suites run against the
 * built bin and the built Worker as well as the source (packages/server/test/built/).
 */
export const sharedBuildOptions = {
  format: "esm",
  platform: "neutral",
  target: "es2022",
  dts: true,
  sourcemap: true,
  clean: true,
  treeshake: false,
  minify: false,
  deps: { neverBundle: [/^node:/, /^#/] },
} satisfies UserConfig;
