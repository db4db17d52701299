import { defineConfig } from "tsdown";
import { sharedBuildOptions } from "../../tsdown.shared.ts";

// The CLI runs on Node only. The delivery service (@task-context/server/node) is loaded by
// `serve` and `render --for remote-agent` with a dynamic import, so that every other command
// starts without it and runs on Node 20.
export default defineConfig({
  ...sharedBuildOptions,
  platform: "node",
  fixedExtension: false,
  target: "node20",
  entry: {
    cli: "src/cli.ts",
    index: "src/index.ts",
    eval: "src/eval/index.ts",
    probe: "src/probe/index.ts",
  },
});
