import { fileURLToPath } from "node:url";
import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

/**
 * The suites run twice: against the newest Claude Agent SDK of the range the package claims (the
 * devDependency `@anthropic-ai/claude-agent-sdk`) and against the lowest
 * (`@anthropic-ai/claude-agent-sdk-lowest`, an alias of 0.2.2), to which every import of the SDK
 * in src/ and the tests is redirected. `CLAUDE_AGENT_SDK_VERSION` says which one a run expects.
 */
/** `{package}/package.json`, read from the package's folder: the 0.3 line does not export it. */
const manifest = (folder: string) => ({
  find: /^@anthropic-ai\/claude-agent-sdk\/package\.json$/,
  replacement: fileURLToPath(
    new URL(`./node_modules/@anthropic-ai/${folder}/package.json`, import.meta.url),
  ),
});

const versions = [
  {
    name: "claude-agent-sdk 0.3.332",
    version: "0.3.332",
    alias: [manifest("claude-agent-sdk")],
  },
  {
    name: "claude-agent-sdk 0.2.2",
    version: "0.2.2",
    alias: [
      manifest("claude-agent-sdk-lowest"),
      {
        find: /^@anthropic-ai\/claude-agent-sdk(?=\/|$)/,
        replacement: "@anthropic-ai/claude-agent-sdk-lowest",
      },
    ],
  },
];

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      projects: versions.map(({ name, version, alias }) => ({
        extends: true,
        resolve: { alias },
        test: { name, env: { CLAUDE_AGENT_SDK_VERSION: version } },
      })),
    },
  }),
);
