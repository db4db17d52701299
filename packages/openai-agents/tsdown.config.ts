import { defineConfig } from "tsdown";
import { sharedBuildOptions } from "../../tsdown.shared.ts";

export default defineConfig({
  ...sharedBuildOptions,
  entry: ["src/index.ts"],
});
