import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CONTEXT_VIEW_PRESETS, injectTaskContext, loadTaskContext } from "@task-context/core";
import { CONTEXT_MD_URI } from "@task-context/mcp";
import { afterAll, describe, expect, it } from "vitest";
import { markdownFences } from "../../../docs/examples/test/markdown-fences.ts";
import { noSuchFolder } from "./context-md-refusals.ts";
import { CLI, runCli, temporaryFolder } from "./run-cli.ts";

const folder = temporaryFolder();
afterAll(folder.remove);
const CONTEXT = "# Task Context\n\n## What we are building\n\nLumen 2.0, a photo editor.\n";
writeFileSync(join(folder.path, "CONTEXT.md"), CONTEXT);

/** The official MCP client over stdio to `task-context …args` in the folder, the built CLI spawned. */
async function connect(args: string[]): Promise<Client> {
  const client = new Client({ name: "task-context-cli-tests", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, ...args],
      cwd: folder.path,
      stderr: "pipe",
    }),
  );
  return client;
}

describe("task-context mcp [dir]", () => {
  it("serves the folder's CONTEXT.md to an MCP client over stdio: resource and tools", async () => {
    const client = await connect(["mcp", folder.path]);
    try {
      const loaded = await loadTaskContext(folder.path);
      const { contents } = await client.readResource({ uri: CONTEXT_MD_URI });
      expect(contents).toEqual([
        {
          uri: CONTEXT_MD_URI,
          mimeType: "text/markdown",
          text: loaded.content,
          _meta: expect.objectContaining({ "task-context/sha256": loaded.sha256 }),
        },
      ]);
      const injected = await client.callTool({
        name: "inject_task_context",
        arguments: { prompt: "Describe the screenshot." },
      });
      expect(injected.structuredContent).toEqual({
        text: injectTaskContext("Describe the screenshot.", loaded),
        sha256: loaded.sha256,
      });
    } finally {
      await client.close();
    }
  });

  it("serves the current folder when none is given, within --max-chars", async () => {
    const client = await connect(["mcp", "--max-chars", "20"]);
    try {
      const loaded = await loadTaskContext(folder.path, { maxChars: 20 });
      const result = await client.callTool({ name: "get_task_context", arguments: {} });
      expect(result.structuredContent).toEqual({
        content: loaded.content,
        sha256: loaded.sha256,
        truncated: true,
        originalLength: loaded.originalLength,
        warning: loaded.warning,
      });
    } finally {
      await client.close();
    }
  });

  it("exits 0 when the client closes stdin, having written nothing but the protocol", async () => {
    // No request on stdin, then end of input: the server ends as an MCP stdio server must.
    expect(await runCli(["mcp", folder.path], { cwd: folder.path })).toEqual({
      stdout: "",
      stderr: "",
      code: 0,
    });
  });

  it("answers every request written before stdin closes, then exits 0", async () => {
    // printf '<initialize>\n<tools/call>\n' | task-context mcp <dir>
    const lines = [
      {
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "printf", version: "1.0.0" },
        },
      },
      { id: 2, method: "tools/call", params: { name: "get_task_context", arguments: {} } },
      {
        id: 3,
        method: "tools/call",
        params: { name: "inject_task_context", arguments: { prompt: "Draw." } },
      },
    ].map((request) => JSON.stringify({ jsonrpc: "2.0", ...request }));
    const run = await runCli(["mcp", folder.path], {
      cwd: folder.path,
      stdin: `${lines.join("\n")}\n`,
    });
    const answers = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(answers.map((answer) => [answer.id, "result" in answer])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    expect(answers[2].result.content).toEqual([
      { type: "text", text: injectTaskContext("Draw.", CONTEXT.trim()) },
    ]);
    expect([run.stderr, run.code]).toEqual(["", 0]);
  });

  it("stops on SIGTERM with exit 0 while a client is connected", async () => {
    const child = spawn(process.execPath, [CLI, "mcp"], { cwd: folder.path });
    const exited = new Promise((resolve) => {
      child.once("close", (code, signal) => resolve({ code, signal }));
    });
    // Once the server has answered initialize, it is serving and listens for signals.
    const answered = new Promise((resolve) => child.stdout.once("data", resolve));
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "task-context-cli-tests", version: "1.0.0" },
        },
      })}\n`,
    );
    await answered;
    child.kill("SIGTERM");
    await expect(exited).resolves.toEqual({ code: 0, signal: null });
  });

  it("refuses a folder that does not exist: one line, a hint, exit 2", async () => {
    expect(await runCli(["mcp", "nowhere"], { cwd: folder.path })).toEqual({
      stdout: "",
      stderr: noSuchFolder("nowhere"),
      code: 2,
    });
  });

  it("refuses a bad --max-chars with the usage hint, exit 2", async () => {
    expect(await runCli(["mcp", "--max-chars", "0"], { cwd: folder.path })).toEqual({
      stdout: "",
      stderr:
        "task-context: option '--max-chars <n>' argument '0' is invalid. expected a whole number of at least 1\nhint: run `task-context mcp --help` to see the usage\n",
      code: 2,
    });
  });
});

describe("task-context mcp --secrets", () => {
  const secrets = temporaryFolder();
  afterAll(secrets.remove);
  // A fake token, assembled here so that no literal in the repository looks like a live one.
  const token = `ghp_${"Lumen2Key0".repeat(4)}`;
  writeFileSync(join(secrets.path, "CONTEXT.md"), `# Lumen\nRelease bot: ${token}\n`);

  it("redacts by default and refuses with --secrets refuse", async () => {
    const redacting = await connect(["mcp", secrets.path]);
    try {
      const result = await redacting.callTool({ name: "get_task_context", arguments: {} });
      expect(result.structuredContent).toMatchObject({
        content: "# Lumen\nRelease bot: [redacted: github-token]",
        warning:
          "Redacted 1 secret from CONTEXT.md before delivery: github-token (line 2). Remove it from CONTEXT.md and pass credentials another way.",
      });
    } finally {
      await redacting.close();
    }
    const refusing = await connect(["mcp", secrets.path, "--secrets", "refuse"]);
    try {
      const result = await refusing.callTool({
        name: "inject_task_context",
        arguments: { prompt: "Draw the logo." },
      });
      expect(result).toMatchObject({
        isError: true,
        _meta: { "task-context/error": { code: "SECRET_IN_CONTEXT" } },
      });
      expect(result.structuredContent).toBeUndefined();
      expect(JSON.stringify(result)).not.toContain(token);
    } finally {
      await refusing.close();
    }
  });

  it("refuses an unknown policy with the usage hint, exit 2", async () => {
    expect(await runCli(["mcp", "--secrets", "hide"], { cwd: folder.path })).toEqual({
      stdout: "",
      stderr:
        "task-context: option '--secrets <policy>' argument 'hide' is invalid. expected redact, refuse or allow\nhint: run `task-context mcp --help` to see the usage\n",
      code: 2,
    });
  });
});

describe("task-context mcp --view, --include, --exclude", () => {
  const views = temporaryFolder();
  afterAll(views.remove);
  writeFileSync(
    join(views.path, "CONTEXT.md"),
    "# Task context\n\n## What we are building\nLumen.\n\n## Other details\nRun pnpm test.\n",
  );

  it("serves the view wherever a request names none; a request's own view wins", async () => {
    const client = await connect(["mcp", views.path, "--view", "media"]);
    try {
      const media = await loadTaskContext(views.path, { view: CONTEXT_VIEW_PRESETS.media });
      const result = await client.callTool({ name: "get_task_context", arguments: {} });
      expect(result.structuredContent).toMatchObject({
        content: "## What we are building\nLumen.",
        sha256: media.sha256,
        view: { name: "media", sections: ["What we are building"] },
      });
      const own = await client.callTool({
        name: "get_task_context",
        arguments: { view: { include: ["Other details"] } },
      });
      expect(own.structuredContent).toMatchObject({ content: "## Other details\nRun pnpm test." });
    } finally {
      await client.close();
    }
    const excluding = await connect(["mcp", views.path, "--exclude", "Other details"]);
    try {
      const { contents } = await excluding.readResource({ uri: CONTEXT_MD_URI });
      expect(contents[0]).toMatchObject({
        text: "# Task context\n\n## What we are building\nLumen.",
        _meta: { "task-context/view": { name: "custom" } },
      });
    } finally {
      await excluding.close();
    }
  });

  it("refuses --view with --include, as render does, exit 2", async () => {
    const refused = await runCli(["mcp", "--view", "media", "--include", "Other details"], {
      cwd: views.path,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--view takes a preset; --include and --exclude make a view");
  });
});

describe("the client configuration of docs/cli.md", () => {
  const [configuration] = markdownFences(
    new URL("../../../docs/cli.md", import.meta.url).pathname,
    "docs/cli.md",
  ).filter((fence) => fence.check === "tested-by packages/cli/test/mcp.test.ts");

  it("runs this package's `mcp` command, in the project's folder", async () => {
    const { mcpServers } = JSON.parse(configuration?.body ?? "{}") as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const { command, args } = mcpServers["task-context"] ?? { command: "", args: [] };
    expect({ command, args: args.slice(0, 2) }).toEqual({
      command: "npx",
      args: ["-y", "@task-context/cli"],
    });
    // The built CLI in place of `npx -y @task-context/cli`, which resolves to it once published.
    const client = await connect(args.slice(2));
    try {
      const result = await client.callTool({ name: "get_task_context", arguments: {} });
      expect(result.structuredContent).toMatchObject({
        sha256: (await loadTaskContext(folder.path)).sha256,
      });
    } finally {
      await client.close();
    }
  });
});
