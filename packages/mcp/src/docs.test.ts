// The MCP client configurations of docs/mcp.md (Claude Code, Codex, Cursor): each is parsed, and
// the server it describes is started — the built bin in place of `npx -y @task-context/mcp`,
// which resolves to it once published — and answers get_task_context in the directory the
// configuration names.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { parse as parseToml } from "smol-toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markdownFences } from "../../../docs/examples/test/markdown-fences.ts";
import { CONTEXT, GET_TASK_CONTEXT_RESULT } from "./test-support/fixtures.ts";
import { BIN } from "./test-support/stdio-client.ts";

const PAGE = "docs/mcp.md";
const page = new URL("../../../docs/mcp.md", import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  name: string;
  bin: Record<string, string>;
};

const configurations = markdownFences(page, PAGE).filter(
  (fence) => fence.check === "tested-by packages/mcp/src/docs.test.ts",
);

interface ServerEntry {
  command: string;
  args: string[];
}

/** The `task-context` server entry of a configuration block, by its client's format. */
function serverEntry(language: string, body: string): ServerEntry {
  if (language === "toml") {
    const config = parseToml(body) as unknown as { mcp_servers: Record<string, ServerEntry> };
    return config.mcp_servers["task-context"] as ServerEntry;
  }
  const config = JSON.parse(body) as { mcpServers: Record<string, ServerEntry> };
  return config.mcpServers["task-context"] as ServerEntry;
}

let directory: string;
beforeAll(() => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-docs-")));
  writeFileSync(join(directory, "CONTEXT.md"), CONTEXT);
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe("the client configurations of docs/mcp.md", () => {
  it("are the Claude Code, Codex and Cursor blocks", () => {
    expect(configurations.map((fence) => fence.language)).toEqual(["json", "toml", "json"]);
  });

  it("name the package, whose one bin npx runs", () => {
    expect(Object.keys(manifest.bin)).toEqual(["task-context-mcp"]);
    for (const fence of configurations) {
      const { command, args } = serverEntry(fence.language, fence.body);
      expect({ command, args: args.slice(0, 2) }, `${PAGE}:${fence.line}`).toEqual({
        command: "npx",
        args: ["-y", manifest.name],
      });
      expect(args.length).toBe(3);
    }
  });

  it.each(configurations.map((fence) => [fence.line, fence] as const))(
    "start a server that answers get_task_context (block at line %i)",
    async (_line, fence) => {
      const { args } = serverEntry(fence.language, fence.body);
      // The directory argument as the client passes it: "." in the project, or Cursor's variable.
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Cursor's variable syntax, not a template.
      const workspaceArgument = (args[2] ?? "").replace("${workspaceFolder}", directory);
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, workspaceArgument],
        cwd: directory,
      });
      const client = new Client({ name: "docs-test", version: "1.0.0" });
      await client.connect(transport);
      try {
        expect(await client.callTool({ name: "get_task_context", arguments: {} })).toEqual(
          GET_TASK_CONTEXT_RESULT,
        );
      } finally {
        await client.close();
      }
    },
  );
});
