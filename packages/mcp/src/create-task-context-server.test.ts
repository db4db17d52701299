import type { Client } from "@modelcontextprotocol/client";
import { memoryWorkspace, type Workspace } from "@task-context/core";
import { lintContextMd } from "@task-context/protocols/context-md";
import { afterEach, describe, expect, it } from "vitest";
import {
  CONTEXT_BLOCK_URI,
  CONTEXT_MD_URI,
  createTaskContextServer,
  MAX_TEXT_ARGUMENT_CHARS,
  type TaskContextServerOptions,
} from "./index.ts";
import { connectInMemory, protocolError } from "./test-support/connect.ts";
import {
  CONTEXT,
  CONTEXT_SHA256,
  GET_TASK_CONTEXT_RESULT,
  MISSING_MESSAGE,
  SAGE_XML,
  toolRefusal,
} from "./test-support/fixtures.ts";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(
  files: Record<string, string> = { "CONTEXT.md": CONTEXT },
  options: Omit<TaskContextServerOptions, "workspace"> = {},
  workspace: Workspace = memoryWorkspace(files),
): Promise<Client> {
  const client = await connectInMemory(createTaskContextServer({ workspace, ...options }));
  clients.push(client);
  return client;
}

const injected = (prompt: string) => `[Task Context]\n${CONTEXT}\n\n[Request]\n${prompt}`;

describe("createTaskContextServer: what it lists", () => {
  it("lists the four tools, each with an input and an output schema, read-only", async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "get_task_context",
      "inject_task_context",
      "validate",
      "lint_context_md",
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    const inject = tools.find((tool) => tool.name === "inject_task_context");
    expect(inject?.inputSchema.required).toEqual(["prompt"]);
    expect(inject?.outputSchema?.required).toEqual(["text", "sha256"]);
  });

  it("lists CONTEXT.md, the context block (with projectPath), the view and Sage templates", async () => {
    const client = await connect(undefined, { projectPath: "/srv/app" });
    const { resources } = await client.listResources();
    expect(resources.map(({ uri, mimeType }) => ({ uri, mimeType }))).toEqual([
      { uri: CONTEXT_MD_URI, mimeType: "text/markdown" },
      { uri: CONTEXT_BLOCK_URI, mimeType: "text/plain" },
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      "task-context://workspace/CONTEXT.md/view{?name,include*,exclude*,max_chars}",
      "task-context://workspace/sage/{taskId}",
    ]);
  });

  it("has no context-block resource without projectPath: a v1 block needs an absolute path", async () => {
    const { resources } = await (await connect()).listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([CONTEXT_MD_URI]);
  });

  it("lists the Sage documents that listSageTaskIds names", async () => {
    const client = await connect(undefined, { listSageTaskIds: async () => ["T-1", "T-2"] });
    const { resources } = await client.listResources();
    expect(resources.map(({ uri, name }) => ({ uri, name }))).toEqual([
      { uri: CONTEXT_MD_URI, name: "CONTEXT.md" },
      { uri: "task-context://workspace/sage/T-1", name: ".sage/context/T-1.xml" },
      { uri: "task-context://workspace/sage/T-2", name: ".sage/context/T-2.xml" },
    ]);
  });

  it("offers with_task_context with a required request argument and optional view ones", async () => {
    const { prompts } = await (await connect()).listPrompts();
    const headings =
      "one a line, or separated by commas (a heading with a comma needs its own line)";
    expect(prompts.map(({ name, arguments: args }) => ({ name, args }))).toEqual([
      {
        name: "with_task_context",
        args: [
          { name: "request", description: "What you want done", required: true },
          {
            name: "view",
            description:
              "Deliver only some sections of CONTEXT.md: a preset (media, brief) alone, or the name of the view given by include and exclude",
            required: false,
          },
          {
            name: "include",
            description: `Headings of CONTEXT.md whose sections (with their sub-sections) to deliver: ${headings}`,
            required: false,
          },
          {
            name: "exclude",
            description: `Headings of CONTEXT.md whose sections to leave out: ${headings}`,
            required: false,
          },
        ],
      },
    ]);
  });

  it("names itself and tells the model what to do with it", async () => {
    const client = await connect();
    expect(client.getServerVersion()?.name).toBe("task-context");
    expect(client.getInstructions()).toContain("Call get_task_context before you start");
  });
});

describe("createTaskContextServer: the CONTEXT.md resource", () => {
  it("is the context as loaded, with its sha256 in _meta", async () => {
    const client = await connect({ "CONTEXT.md": `\uFEFF\n  ${CONTEXT}\n\n` });
    expect(await client.readResource({ uri: CONTEXT_MD_URI })).toEqual({
      contents: [
        {
          uri: CONTEXT_MD_URI,
          mimeType: "text/markdown",
          text: CONTEXT,
          _meta: {
            "task-context/sha256": CONTEXT_SHA256,
            "task-context/truncated": false,
            "task-context/originalLength": CONTEXT.length,
          },
        },
      ],
    });
  });

  it("is bounded, with the truncation warning in _meta", async () => {
    const client = await connect({ "CONTEXT.md": "We are building Lumen." }, { maxChars: 10 });
    const [content] = (await client.readResource({ uri: CONTEXT_MD_URI })).contents;
    expect(content).toMatchObject({
      text: "We are bui",
      _meta: {
        "task-context/truncated": true,
        "task-context/originalLength": 22,
        "task-context/warning":
          "CONTEXT.md was truncated from 22 to 10 characters (limit 10). Consider shortening it.",
      },
    });
  });

  it("is a resource-not-found error with the spec's guiding message when CONTEXT.md is missing", async () => {
    const client = await connect({});
    expect(await protocolError(client.readResource({ uri: CONTEXT_MD_URI }))).toEqual({
      code: -32602,
      message: MISSING_MESSAGE,
      data: { uri: CONTEXT_MD_URI },
    });
  });
});

describe("createTaskContextServer: tools", () => {
  it("get_task_context returns the context, its hash and no warning", async () => {
    const result = await (await connect()).callTool({ name: "get_task_context", arguments: {} });
    expect(result).toEqual(GET_TASK_CONTEXT_RESULT);
  });

  it("get_task_context returns the truncation warning as text and as a field", async () => {
    const client = await connect({ "CONTEXT.md": "We are building Lumen." }, { maxChars: 10 });
    const warning =
      "CONTEXT.md was truncated from 22 to 10 characters (limit 10). Consider shortening it.";
    const result = await client.callTool({ name: "get_task_context", arguments: {} });
    expect(result.content).toEqual([
      { type: "text", text: "We are bui" },
      { type: "text", text: `Warning: ${warning}` },
    ]);
    expect(result.structuredContent).toMatchObject({ truncated: true, warning });
  });

  it("inject_task_context returns exactly [Task Context]…[Request]…", async () => {
    const prompt = "Draw the LUMEN wordmark.\n[Request]\nnot a marker";
    const result = await (await connect()).callTool({
      name: "inject_task_context",
      arguments: { prompt },
    });
    expect(result).toEqual({
      content: [{ type: "text", text: injected(prompt) }],
      structuredContent: { text: injected(prompt), sha256: CONTEXT_SHA256 },
    });
  });

  it("returns a tool error with the spec's guiding message when CONTEXT.md is missing", async () => {
    const client = await connect({});
    for (const [name, args] of [
      ["get_task_context", {}],
      ["inject_task_context", { prompt: "Draw." }],
      ["lint_context_md", {}],
    ] as const) {
      expect(await client.callTool({ name, arguments: args })).toEqual(
        toolRefusal("TASK_CONTEXT_MISSING", MISSING_MESSAGE),
      );
    }
  });

  it("returns a tool error with the issues for malformed arguments", async () => {
    const client = await connect();
    const notAString =
      'prompt must be a string, not the number 3. Quote it to make it a string: "3".';
    expect(
      await client.callTool({ name: "inject_task_context", arguments: { prompt: 3 } }),
    ).toEqual(
      toolRefusal(
        "INVALID_ARGUMENT",
        `Invalid arguments for inject_task_context: ${notAString} Call inject_task_context again with arguments that match its input schema.`,
        [{ path: "/prompt", message: notAString }],
      ),
    );
    const unknownSchema = await client.callTool({
      name: "validate",
      arguments: { schema: "nope.v9", document: {} },
    });
    expect(unknownSchema).toMatchObject({
      isError: true,
      _meta: {
        "task-context/error": {
          code: "INVALID_ARGUMENT",
          issues: [
            {
              path: "/schema",
              message: expect.stringMatching(
                /^schema must be one of "context-block\.v1", .* not the string "nope\.v9"\.$/,
              ),
            },
          ],
        },
      },
    });
  });

  it("returns a tool error for oversized arguments, before reading anything", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "inject_task_context",
      arguments: { prompt: "x".repeat(MAX_TEXT_ARGUMENT_CHARS + 1) },
    });
    const tooLong = "prompt must have at most 1000000 characters, not 1000001.";
    expect(result).toEqual(
      toolRefusal(
        "INVALID_ARGUMENT",
        `Invalid arguments for inject_task_context: ${tooLong} Call inject_task_context again with arguments that match its input schema.`,
        [{ path: "/prompt", message: tooLong }],
      ),
    );
    const document = await client.callTool({
      name: "validate",
      arguments: { schema: "work-item.v1", document: { padding: "é".repeat(600_000) } },
    });
    const tooBig =
      "document: document must be at most 1048576 bytes as JSON; check a smaller document.";
    expect(document).toEqual(
      toolRefusal(
        "INVALID_ARGUMENT",
        `Invalid arguments for validate: ${tooBig} Call validate again with arguments that match its input schema.`,
        [{ path: "/document", message: tooBig }],
      ),
    );
  });

  it("answers an unknown tool with the protocol's error", async () => {
    const client = await connect();
    expect(await protocolError(client.callTool({ name: "write_file", arguments: {} }))).toEqual({
      code: -32602,
      message: "Tool write_file not found",
      data: undefined,
    });
  });

  it("validate reports every issue of a JSON document with its pointer", async () => {
    const result = await (await connect()).callTool({
      name: "validate",
      arguments: {
        schema: "context-block.v1",
        document: { version: 1, project: { path: "srv/app", stack: "hono" } },
      },
    });
    expect(result.structuredContent).toEqual({
      valid: false,
      issues: [
        {
          path: "/project/path",
          message:
            'project.path must be an absolute path (such as /Users/dev/code/my-app or C:\\code\\my-app), not the string "srv/app".',
        },
        {
          path: "/conventions",
          message: "conventions is required: an object with summary and, optionally, fullPath.",
        },
      ],
    });
    expect(result.content).toEqual([
      {
        type: "text",
        text: 'The document is not a valid context-block.v1 document:\n- /project/path: project.path must be an absolute path (such as /Users/dev/code/my-app or C:\\code\\my-app), not the string "srv/app".\n- /conventions: conventions is required: an object with summary and, optionally, fullPath.',
      },
    ]);
  });

  it("validate accepts a context block and a Sage document as text", async () => {
    const client = await connect();
    const block =
      "<context>\nversion: 1\nproject:\n  path: /srv/app\n  stack: hono\nconventions:\n  summary: ESM only.\n</context>\n\nAdd a route.";
    expect(
      await client.callTool({
        name: "validate",
        arguments: { schema: "context-block.v1", document: block },
      }),
    ).toEqual({
      content: [{ type: "text", text: "The document is a valid context-block.v1 document." }],
      structuredContent: { valid: true, issues: [] },
    });
    const sage = await client.callTool({
      name: "validate",
      arguments: { schema: "subagent-context.v1", document: SAGE_XML },
    });
    expect(sage.structuredContent).toEqual({ valid: true, issues: [] });
    const broken = await client.callTool({
      name: "validate",
      arguments: { schema: "subagent-context.v1", document: "<subagent-context>" },
    });
    expect(broken.structuredContent).toMatchObject({ valid: false });
    expect((broken.structuredContent as { issues: unknown[] }).issues.length).toBeGreaterThan(0);
    const notABlock = await client.callTool({
      name: "validate",
      arguments: { schema: "context-block.v1", document: "Add a route." },
    });
    expect(notABlock.structuredContent).toEqual({
      valid: false,
      issues: [
        {
          path: "",
          message:
            "The text does not start with a <context> block. Give the block itself (<context>\\nversion: 1\\n…\\n</context>) or the block's fields as an object.",
        },
      ],
    });
  });

  it("lint_context_md lints the workspace's file, or a draft", async () => {
    const client = await connect({ "CONTEXT.md": "TODO\n" });
    const result = await client.callTool({ name: "lint_context_md", arguments: {} });
    expect(result.structuredContent).toMatchObject({ ok: true });
    const rules = (result.structuredContent as { issues: Array<{ rule: string }> }).issues.map(
      (issue) => issue.rule,
    );
    expect(rules).toEqual([
      "missing-section",
      "missing-section",
      "missing-section",
      "missing-section",
    ]);
    const draft = await client.callTool({
      name: "lint_context_md",
      arguments: { text: "   \n" },
    });
    // The verdict is protocols' lintContextMd, unchanged; the text lists it for the model.
    const verdict = lintContextMd("   \n");
    expect(draft).toEqual({
      content: [{ type: "text", text: `error: ${verdict.issues[0]?.message}` }],
      structuredContent: verdict,
    });
    expect(verdict.issues.map((issue) => issue.rule)).toEqual(["empty"]);
  });
});

describe("createTaskContextServer: the with_task_context prompt", () => {
  it("is one user message with the context injected", async () => {
    const client = await connect();
    expect(
      await client.getPrompt({ name: "with_task_context", arguments: { request: "Draw." } }),
    ).toEqual({
      messages: [{ role: "user", content: { type: "text", text: injected("Draw.") } }],
      _meta: {
        "task-context/sha256": CONTEXT_SHA256,
        "task-context/truncated": false,
        "task-context/originalLength": CONTEXT.length,
      },
    });
  });

  it("refuses a missing request argument with the protocol's error", async () => {
    const client = await connect();
    const refused = await protocolError(client.getPrompt({ name: "with_task_context" }));
    expect(refused).toEqual({
      code: -32602,
      message:
        "Invalid arguments for prompt with_task_context: request is required: a string, what you want done.",
      data: {
        issues: [
          {
            path: "/arguments/request",
            message: "request is required: a string, what you want done.",
          },
        ],
      },
    });
  });

  it("fails with the spec's guiding message when CONTEXT.md is missing", async () => {
    const client = await connect({});
    expect(
      await protocolError(
        client.getPrompt({ name: "with_task_context", arguments: { request: "Draw." } }),
      ),
    ).toEqual({
      code: -32600,
      message: MISSING_MESSAGE,
      data: { code: "TASK_CONTEXT_MISSING" },
    });
  });
});

describe("createTaskContextServer: Sage documents and the context block", () => {
  it("serves a Sage document by task id, as written", async () => {
    const client = await connect({ "CONTEXT.md": CONTEXT, ".sage/context/T-1.xml": SAGE_XML });
    const { contents } = await client.readResource({ uri: "task-context://workspace/sage/T-1" });
    expect(contents).toEqual([
      {
        uri: "task-context://workspace/sage/T-1",
        mimeType: "application/xml",
        text: SAGE_XML,
        _meta: { "task-context/sha256": expect.stringMatching(/^[0-9a-f]{64}$/) },
      },
    ]);
  });

  it("refuses a task id that could leave .sage/context/, a missing and a broken document", async () => {
    const client = await connect({
      "CONTEXT.md": CONTEXT,
      ".sage/context/bad.xml": "<subagent-context>",
    });
    const outside = await protocolError(
      client.readResource({ uri: "task-context://workspace/sage/..%2F..%2FCONTEXT" }),
    );
    expect(outside).toMatchObject({ code: -32602, data: { code: "INVALID_TASK_ID" } });
    expect(outside.message).toBe(
      'Invalid task id "../../CONTEXT": it must start with a letter or digit and use only letters, digits, ".", "_" and "-" (at most 128 characters), because the context is written to .sage/context/{taskId}.xml. Use an id such as "story-12.task-3".',
    );
    expect(
      await protocolError(client.readResource({ uri: "task-context://workspace/sage/T-9" })),
    ).toMatchObject({ code: -32602, data: { uri: "task-context://workspace/sage/T-9" } });
    const broken = await protocolError(
      client.readResource({ uri: "task-context://workspace/sage/bad" }),
    );
    expect(broken.message).toMatch(
      /^\.sage\/context\/bad\.xml is not a valid <subagent-context> document: /,
    );
  });

  it("renders the workspace's Context Protocol v1 block from docs/", async () => {
    const client = await connect(
      {
        "docs/project.json": '{"name": "notes", "stack": "hono", "commands": {"test": "npm test"}}',
        "docs/CONVENTIONS.md": "# Conventions\n\nESM only. Zod for validation.\n",
      },
      { projectPath: "/srv/app" },
    );
    expect(await client.readResource({ uri: CONTEXT_BLOCK_URI })).toEqual({
      contents: [
        {
          uri: CONTEXT_BLOCK_URI,
          mimeType: "text/plain",
          text: "<context>\nversion: 1\nproject:\n  path: /srv/app\n  stack: hono\n  commands:\n    test: npm test\nconventions:\n  summary: |-\n    # Conventions\n\n    ESM only. Zod for validation.\n  fullPath: /srv/app/docs/CONVENTIONS.md\n</context>",
        },
      ],
    });
  });

  it("says which files are missing when there is no block to build", async () => {
    const client = await connect({}, { projectPath: "/srv/app" });
    expect(await protocolError(client.readResource({ uri: CONTEXT_BLOCK_URI }))).toEqual({
      code: -32602,
      message:
        "The workspace has no Context Protocol v1 context: docs/project.json was not found in the workspace, so the project's stack and commands are unknown. Create docs/project.json, or have the sender put a <context> block at the start of the prompt. docs/CONVENTIONS.md was not found in the workspace, so no conventions are known. Create docs/CONVENTIONS.md, or have the sender put a <context> block at the start of the prompt.",
      data: { uri: CONTEXT_BLOCK_URI },
    });
    const stackOnly = await connect(
      { "docs/project.json": '{"stack": "hono"}' },
      { projectPath: "/srv/app" },
    );
    const error = await protocolError(stackOnly.readResource({ uri: CONTEXT_BLOCK_URI }));
    expect(error.message).toMatch(
      /^docs\/project\.json and docs\/CONVENTIONS\.md do not make a valid Context Protocol v1 block: conventions\.summary is required/,
    );
  });

  it("answers an unknown resource with the protocol's error", async () => {
    const client = await connect();
    expect(
      await protocolError(client.readResource({ uri: "task-context://workspace/secrets.env" })),
    ).toEqual({
      code: -32602,
      message: "Resource not found: task-context://workspace/secrets.env",
      data: { uri: "task-context://workspace/secrets.env" },
    });
  });
});

describe("createTaskContextServer: options", () => {
  it("refuses options it cannot use, before serving anything", () => {
    const workspace = memoryWorkspace({});
    expect(() => createTaskContextServer({ workspace: {} as Workspace })).toThrow(
      /^Invalid options\.workspace/,
    );
    expect(() => createTaskContextServer({ workspace, maxChars: 0 })).toThrow(
      /^Invalid options\.maxChars/,
    );
    expect(() => createTaskContextServer({ workspace, projectPath: "srv/app" })).toThrow(
      'Invalid options.projectPath: expected the absolute path of the project root (such as /srv/app), got "srv/app".',
    );
    expect(() =>
      createTaskContextServer({ workspace, changes: {} as TaskContextServerOptions["changes"] }),
    ).toThrow(/^Invalid options\.changes/);
  });
});
