import { defineConfig } from "tsdown";
import { sharedBuildOptions } from "../../tsdown.shared.ts";

// `#validators` is chosen per runtime by the package.json `imports` conditions, at run time.
export default defineConfig({
  ...sharedBuildOptions,
  entry: {
    index: "src/index.ts",
    "context-block": "src/context-block/index.ts",
    sage: "src/sage/index.ts",
    "context-md": "src/context-md/index.ts",
    "work-item": "src/work-item.ts",
    "standalone-validators": "src/validate/standalone-validators.ts",
    "runtime-validators": "src/validate/runtime-validators.ts",
  },
});
