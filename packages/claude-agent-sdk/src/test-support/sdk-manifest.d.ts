// The SDK's package.json, which the tests read to check the version they run against. The 0.3
// line does not export it: vitest.config.ts resolves it from the package's folder.
declare module "@anthropic-ai/claude-agent-sdk/package.json" {
  const manifest: { version: string };
  export default manifest;
}
