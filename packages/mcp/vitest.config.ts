import { defineConfig, mergeConfig } from "vitest/config";
import shared, { WAITING_SUITE_WORKERS } from "../../vitest.shared.ts";

export default mergeConfig(
  shared,
  defineConfig({
    test: { globalSetup: ["src/test-support/build-once.ts"], maxWorkers: WAITING_SUITE_WORKERS },
  }),
);
