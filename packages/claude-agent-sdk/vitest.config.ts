import { frameworkVersionsConfig } from "@task-context/adapter-test-kit/vitest-config";

/**
 * The suites run twice: against the newest Claude Agent SDK of the range the package claims (the
 * devDependency `@anthropic-ai/claude-agent-sdk`) and against the lowest
 * (`@anthropic-ai/claude-agent-sdk-lowest`), to which every import of the SDK in src/ and the
 * tests is redirected; its package.json is read from the package's folder, as the 0.3 line does
 * not export it. `CLAUDE_AGENT_SDK_VERSION` says which one a run expects.
 */
export default frameworkVersionsConfig({
  configUrl: import.meta.url,
  framework: "@anthropic-ai/claude-agent-sdk",
  versionVariable: "CLAUDE_AGENT_SDK_VERSION",
});
