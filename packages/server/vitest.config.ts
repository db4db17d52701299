import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      include: ["test/**/*.test.ts", "src/**/*.test.ts"],
      // Inside workerd: vitest.workers.config.ts; in chromium: vitest.browser.config.ts.
      exclude: [...configDefaults.exclude, "test/workers/**", "test/browser/**"],
    },
  }),
);
