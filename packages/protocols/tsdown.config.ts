import { defineConfig } from "tsdown";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "context-block": "src/context-block/index.ts",
    sage: "src/sage/index.ts",
    "context-md": "src/context-md/index.ts",
    "work-item": "src/work-item.ts",
    "standalone-validators": "src/validate/standalone-validators.ts",
    "runtime-validators": "src/validate/runtime-validators.ts",
  },
  format: "esm",
  platform: "neutral",
  target: "es2022",
  dts: true,
  sourcemap: true,
  clean: true,
  // `#validators` is chosen per runtime by the package.json `imports` conditions, at run time.
  deps: { neverBundle: [/^node:/, /^#/] },
});
