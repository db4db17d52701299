import type { UserConfig } from "tsdown";

/**
 * What every published package builds the same way: ESM with declarations and source maps, for
 * any runtime (no platform shims), `node:*` built-ins and `#` package imports left to run time.
 */
export const sharedBuildOptions = {
  format: "esm",
  platform: "neutral",
  target: "es2022",
  dts: true,
  sourcemap: true,
  clean: true,
  deps: { neverBundle: [/^node:/, /^#/] },
} satisfies UserConfig;
