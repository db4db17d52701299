import { defineConfig } from "tsdown";

export default defineConfig({
  entry: [
    "src/index.ts",
    "src/index.node.ts",
    "src/node.ts",
    "src/o200k.ts",
    "src/sha256.ts",
    "src/sha256.node.ts",
  ],
  format: "esm",
  platform: "neutral",
  target: "es2022",
  dts: true,
  sourcemap: true,
  clean: true,
  // `#sha256` is chosen per runtime by the package.json `imports` conditions, at run time; the
  // lazily loaded o200k tokenizer stays behind its own entry point.
  deps: { neverBundle: [/^node:/, /^#/, /^@task-context\/core\//] },
});
