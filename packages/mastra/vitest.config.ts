import { frameworkVersionsConfig } from "@task-context/adapter-test-kit/vitest-config";

/**
 * Every test file runs twice: against the newest @mastra/core of the peer range and, through
 * an alias, against the lowest (the devDependency @mastra/core-lowest).
 */
export default frameworkVersionsConfig({ configUrl: import.meta.url, framework: "@mastra/core" });
