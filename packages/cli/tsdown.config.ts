import { defineConfig } from "tsdown";
import { sharedBuildOptions } from "../../tsdown.shared.ts";

// The CLI runs on Node only. The delivery service (apps/edge, private) is bundled in, in its own
// chunk loaded by `serve` and `render --for remote-agent` with a dynamic import, so that every
// other command starts without it and runs on Node 20; its runtime dependencies are the CLI's.
export default defineConfig({
  ...sharedBuildOptions,
  platform: "node",
  fixedExtension: false,
  target: "node20",
  entry: { cli: "src/cli.ts", index: "src/index.ts" },
  deps: { ...sharedBuildOptions.deps, alwaysBundle: [/^@task-context\/edge/] },
});
