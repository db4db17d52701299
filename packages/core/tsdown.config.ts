import { defineConfig } from "tsdown";
import { sharedBuildOptions } from "../../tsdown.shared.ts";

export default defineConfig({
  ...sharedBuildOptions,
  entry: [
    "src/index.ts",
    "src/index.node.ts",
    "src/node.ts",
    "src/o200k.ts",
    "src/internal.ts",
    "src/tracing.ts",
    "src/sha256.ts",
    "src/sha256.node.ts",
    "src/open-telemetry-api.ts",
    "src/open-telemetry-api.node.ts",
  ],
  // `#sha256` and `#open-telemetry-api` are chosen per runtime by the package.json `imports`
  // conditions, at run time; the lazily loaded o200k tokenizer stays behind its own entry point.
  deps: { neverBundle: [...sharedBuildOptions.deps.neverBundle, /^@task-context\/core\//] },
});
