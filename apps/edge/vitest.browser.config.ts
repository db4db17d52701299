import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// The run page in Debian's chromium (test/browser/): one browser per file, the files one after
// another so that two browsers never compete with the other suites for the machine's cores.
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      include: ["test/browser/**/*.test.ts"],
      fileParallelism: false,
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  }),
);
