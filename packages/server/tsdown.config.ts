import { defineConfig } from "tsdown";
import { sharedBuildOptions } from "../../tsdown.shared.ts";

export default defineConfig({
  ...sharedBuildOptions,
  entry: [
    "src/index.ts",
    "src/node.ts",
    "src/workers.ts",
    "src/client.ts",
    "src/postgres.ts",
    "src/a2a.ts",
    "src/a2a-agent.ts",
    "src/main.ts",
  ],
  deps: { neverBundle: [...sharedBuildOptions.deps.neverBundle, /^cloudflare:/] },
});
