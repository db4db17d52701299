import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

/**
 * The suites run twice: against the newest LangGraph of the range the package claims (the
 * devDependency `@langchain/langgraph`) and against the lowest (`@langchain/langgraph-lowest`,
 * an alias of 1.0.0), to which every import of `@langchain/langgraph` in src/ and the tests is
 * redirected. `LANGGRAPH_VERSION` says which one a run expects.
 */
const versions = [
  { name: "langgraph 1.7.3", version: "1.7.3", alias: [] },
  {
    name: "langgraph 1.0.0",
    version: "1.0.0",
    alias: [{ find: /^@langchain\/langgraph(?=\/|$)/, replacement: "@langchain/langgraph-lowest" }],
  },
];

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      projects: versions.map(({ name, version, alias }) => ({
        extends: true,
        resolve: { alias },
        test: { name, env: { LANGGRAPH_VERSION: version } },
      })),
    },
  }),
);
