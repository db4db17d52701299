import { frameworkVersionsConfig } from "@task-context/adapter-test-kit/vitest-config";

/**
 * The suites run twice: against the newest LangGraph of the range the package claims (the
 * devDependency `@langchain/langgraph`) and against the lowest (`@langchain/langgraph-lowest`),
 * to which every import of `@langchain/langgraph` in src/ and the tests is redirected.
 * `LANGGRAPH_VERSION` says which one a run expects.
 */
export default frameworkVersionsConfig({
  configUrl: import.meta.url,
  framework: "@langchain/langgraph",
  versionVariable: "LANGGRAPH_VERSION",
});
