import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// The demo runs as a subprocess in its test (real stand-in server, real delivery service, real
// child processes): allow it the time a busy two-core machine needs.
export default mergeConfig(
  shared,
  defineConfig({ test: { testTimeout: 120_000, hookTimeout: 120_000 } }),
);
