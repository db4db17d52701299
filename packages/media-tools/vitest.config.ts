import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

export default mergeConfig(
  shared,
  defineConfig({ test: { setupFiles: ["src/test-support/log-warnings.ts"] } }),
);
