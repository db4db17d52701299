import { frameworkVersionsConfig } from "@task-context/adapter-test-kit/vitest-config";

/**
 * Every test file runs twice: against the newest @openai/agents of the peer range and, through
 * an alias, against the lowest (the devDependency @openai/agents-lowest).
 */
export default frameworkVersionsConfig({ configUrl: import.meta.url, framework: "@openai/agents" });
