import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

/**
 * Every test file runs twice: against the newest @mastra/core of the peer range and, through
 * an alias, against the lowest (the devDependency @mastra/core-lowest).
 */
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      projects: [
        { extends: true, test: { name: "newest" } },
        {
          extends: true,
          test: { name: "lowest" },
          resolve: {
            alias: [{ find: /^@mastra\/core(\/.*)?$/, replacement: "@mastra/core-lowest$1" }],
          },
        },
      ],
    },
  }),
);
