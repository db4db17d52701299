import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/index.ts"],
  format: "esm",
  platform: "neutral",
  target: "es2022",
  dts: true,
  sourcemap: true,
  clean: true,
  // Node, Bun and Deno all provide `node:*`; workspace packages stay imports of their own builds.
  deps: { neverBundle: [/^node:/] },
});
