import { defineConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// The run page in Debian's chromium (test/browser/): one browser per file, the files one after
// another so that two browsers never compete with the other suites for the machine's cores. Only
// these files (mergeConfig would add the shared `include` of src/).
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ["test/browser/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
