import type { Client } from "@modelcontextprotocol/client";
import { ArgumentError, memoryWorkspace } from "@task-context/core";
import { afterEach, describe, expect, it } from "vitest";
import { CONTEXT_MD_URI, createTaskContextServer, type TaskContextServerOptions } from "./index.ts";
import { connectInMemory } from "./test-support/connect.ts";
import { toolRefusal } from "./test-support/fixtures.ts";

// A fake token, assembled here so that no literal in the repository looks like a live one.
const TOKEN = `ghp_${"Lumen2Key0".repeat(4)}`;
const FILE = `# Lumen\nRelease bot: ${TOKEN}\nShip on Monday.`;
const REDACTED = "# Lumen\nRelease bot: [redacted: github-token]\nShip on Monday.";
const WARNING =
  "Redacted 1 secret from CONTEXT.md before delivery: github-token (line 2). Remove it from CONTEXT.md and pass credentials another way.";
const REFUSED =
  'CONTEXT.md holds 1 secret: github-token (line 2). Nothing was delivered, because the secrets policy is "refuse": remove it from CONTEXT.md and pass credentials another way, or deliver with secrets: "redact".';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(options: Omit<TaskContextServerOptions, "workspace"> = {}) {
  const server = createTaskContextServer({
    workspace: memoryWorkspace({ "CONTEXT.md": FILE }),
    ...options,
  });
  const client = await connectInMemory(server);
  clients.push(client);
  return client;
}

describe("the MCP server and secrets in CONTEXT.md", () => {
  it("redact (the default): inject_task_context and get_task_context deliver the redacted text with the warning", async () => {
    const client = await connect();
    const injected = await client.callTool({
      name: "inject_task_context",
      arguments: { prompt: "Draw the logo." },
    });
    const text = `[Task Context]\n${REDACTED}\n\n[Request]\nDraw the logo.`;
    expect(injected.content).toEqual([
      { type: "text", text },
      { type: "text", text: `Warning: ${WARNING}` },
    ]);
    expect(injected.structuredContent).toMatchObject({ text, warning: WARNING });
    const got = await client.callTool({ name: "get_task_context", arguments: {} });
    expect(got.structuredContent).toMatchObject({ content: REDACTED, warning: WARNING });
    const { contents } = await client.readResource({ uri: CONTEXT_MD_URI });
    expect(contents[0]).toMatchObject({
      text: REDACTED,
      _meta: expect.objectContaining({ "task-context/warning": WARNING }),
    });
  });

  it("refuse: the tools return a tool error with code SECRET_IN_CONTEXT, never the value", async () => {
    const client = await connect({ secrets: "refuse" });
    for (const [name, args] of [
      ["inject_task_context", { prompt: "Draw the logo." }],
      ["get_task_context", {}],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result).toEqual(toolRefusal("SECRET_IN_CONTEXT", REFUSED));
    }
  });

  it("allow: the tools deliver CONTEXT.md as written", async () => {
    const client = await connect({ secrets: "allow" });
    const got = await client.callTool({ name: "get_task_context", arguments: {} });
    expect(got.structuredContent).toMatchObject({ content: FILE });
    expect(got.structuredContent).not.toHaveProperty("warning");
  });

  it("refuses a misspelt policy when the server is created", () => {
    expect(() =>
      createTaskContextServer({
        workspace: memoryWorkspace(),
        secrets: "none" as "allow",
      }),
    ).toThrow(
      new ArgumentError({
        argument: "options.secrets",
        message: 'expected "redact", "refuse" or "allow", got "none".',
      }),
    );
  });
});
