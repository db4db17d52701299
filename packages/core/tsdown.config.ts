import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/index.ts", "src/index.node.ts", "src/node.ts", "src/o200k.ts"],
  format: "esm",
  platform: "neutral",
  target: "es2022",
  dts: true,
  sourcemap: true,
  clean: true,
  deps: { neverBundle: [/^node:/] },
  publint: true,
  attw: { profile: "esm-only" },
});
