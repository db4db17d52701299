import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/client";
import {
  ArgumentError,
  CONTEXT_VIEW_PRESETS,
  loadTaskContext,
  memoryWorkspace,
  selectContextView,
} from "@task-context/core";
import { CONTEXT_MD_TEMPLATE } from "@task-context/protocols/context-md";
import { afterEach, describe, expect, it } from "vitest";
import {
  CONTEXT_MD_URI,
  CONTEXT_MD_VIEW_URI_TEMPLATE,
  contextMdViewUri,
  createTaskContextServer,
} from "./index.ts";
import { connectInMemory, protocolError } from "./test-support/connect.ts";
import { toolRefusal } from "./test-support/fixtures.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The CONTEXT.md template: the four sections the system prompt teaches, under their headings. */
const CONTEXT_MD = CONTEXT_MD_TEMPLATE.trim();

/** The media preset's sections of it (core's selection, tested there). */
const MEDIA = selectContextView(CONTEXT_MD, CONTEXT_VIEW_PRESETS.media).content;

const MEDIA_VIEW = {
  name: "media",
  sections: ["What we are building", "Key terminology", "Visual and brand guidelines"],
  fileSha256: sha256(CONTEXT_MD),
};

const HEADINGS =
  '"Task context", "What we are building", "Key terminology", "Visual and brand guidelines", "Other details"';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(
  options: Partial<Parameters<typeof createTaskContextServer>[0]> = {},
): Promise<Client> {
  const client = await connectInMemory(
    createTaskContextServer({
      workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT_MD }),
      ...options,
    }),
  );
  clients.push(client);
  return client;
}

describe("views over MCP", () => {
  it("get_task_context with a preset's name returns the view, its sections and both hashes", async () => {
    const result = await (await connect()).callTool({
      name: "get_task_context",
      arguments: { view: { name: "media" } },
    });
    expect(result).toStrictEqual({
      content: [{ type: "text", text: MEDIA }],
      structuredContent: {
        content: MEDIA,
        sha256: sha256(MEDIA),
        truncated: false,
        originalLength: MEDIA.length,
        view: MEDIA_VIEW,
      },
    });
  });

  it("get_task_context without a view is as before: the whole file, no view", async () => {
    const result = await (await connect()).callTool({ name: "get_task_context", arguments: {} });
    expect(result.structuredContent).toStrictEqual({
      content: CONTEXT_MD,
      sha256: sha256(CONTEXT_MD),
      truncated: false,
      originalLength: CONTEXT_MD.length,
    });
  });

  it("inject_task_context with include, exclude and max_chars injects the view", async () => {
    const result = await (await connect()).callTool({
      name: "inject_task_context",
      arguments: {
        prompt: "Draw the hero image.",
        view: {
          name: "brand",
          include: ["Task context"],
          exclude: ["Other details", "Key terminology"],
          max_chars: 48,
        },
      },
    });
    // Exactly what core's loader delivers for that view, within the server's 10 000 characters.
    const view = {
      name: "brand",
      include: ["Task context"],
      exclude: ["Other details", "Key terminology"],
      maxChars: 48,
    };
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": CONTEXT_MD }), { view });
    expect(context.truncated).toBe(true);
    expect(result.structuredContent).toStrictEqual({
      text: `[Task Context]\n${context.content}\n\n[Request]\nDraw the hero image.`,
      sha256: context.sha256,
      warning: context.warning,
      view: {
        name: "brand",
        sections: ["Task context", "What we are building", "Visual and brand guidelines"],
        fileSha256: sha256(CONTEXT_MD),
      },
    });
  });

  it("a view that selects nothing is a CONTEXT_VIEW_EMPTY tool error naming the file's headings", async () => {
    const result = await (await connect()).callTool({
      name: "get_task_context",
      arguments: { view: { include: ["Deployment"] } },
    });
    expect(result).toStrictEqual(
      toolRefusal(
        "CONTEXT_VIEW_EMPTY",
        `View "custom" selects nothing of CONTEXT.md: it includes "Deployment" and excludes nothing. CONTEXT.md's headings are ${HEADINGS}. Name headings CONTEXT.md has, or write those sections into it.`,
      ),
    );
  });

  it("refuses a name that is no preset, and a malformed view, as INVALID_ARGUMENT", async () => {
    const client = await connect();
    expect(
      await client.callTool({ name: "get_task_context", arguments: { view: { name: "tests" } } }),
    ).toStrictEqual(
      toolRefusal(
        "INVALID_ARGUMENT",
        'Invalid view: "tests" is no preset, and a view needs include or exclude. Name a preset (media, brief) or give the headings to include or exclude.',
      ),
    );
    const malformed = await client.callTool({
      name: "inject_task_context",
      arguments: { prompt: "x", view: { include: [] } },
    });
    expect(malformed).toMatchObject({
      isError: true,
      _meta: {
        "task-context/error": {
          code: "INVALID_ARGUMENT",
          issues: [{ path: "/view/include", message: expect.any(String) }],
        },
      },
    });
  });

  it("lists the view template and reads views by URI, with the view in _meta", async () => {
    const client = await connect();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain(
      CONTEXT_MD_VIEW_URI_TEMPLATE,
    );
    const uri = contextMdViewUri({ name: "media" });
    expect(uri).toBe("task-context://workspace/CONTEXT.md/view?name=media");
    const { contents } = await client.readResource({ uri });
    expect(contents).toStrictEqual([
      {
        uri,
        mimeType: "text/markdown",
        text: MEDIA,
        _meta: {
          "task-context/sha256": sha256(MEDIA),
          "task-context/truncated": false,
          "task-context/originalLength": MEDIA.length,
          "task-context/view": MEDIA_VIEW,
        },
      },
    ]);
    const custom = contextMdViewUri({
      include: ["Key terminology", "What we are building"],
      maxChars: 2000,
    });
    expect(custom).toBe(
      "task-context://workspace/CONTEXT.md/view?include=Key%20terminology&include=What%20we%20are%20building&max_chars=2000",
    );
    const read = await client.readResource({ uri: custom });
    expect(read.contents[0]).toMatchObject({
      text: selectContextView(CONTEXT_MD, CONTEXT_VIEW_PRESETS.brief).content,
    });
  });

  it("refuses a view URI that selects nothing or is malformed, with the protocol's errors", async () => {
    const client = await connect();
    const empty = contextMdViewUri({ include: ["Deployment"] });
    expect(await protocolError(client.readResource({ uri: empty }))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('View "custom" selects nothing of CONTEXT.md'),
    });
    expect(
      await protocolError(
        client.readResource({ uri: `${contextMdViewUri({ name: "media" })}&colour=teal` }),
      ),
    ).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown parameter "colour"'),
    });
    expect(
      await protocolError(
        client.readResource({ uri: contextMdViewUri({ name: "media", maxChars: 0 }) }),
      ),
    ).toMatchObject({ code: -32602, message: expect.stringContaining("Invalid view in") });
  });
});

describe("views over MCP: the with_task_context prompt", () => {
  const injected = (context: string) => `[Task Context]\n${context}\n\n[Request]\nDraw.`;

  it("builds the message from a preset named by the view argument", async () => {
    const result = await (await connect()).getPrompt({
      name: "with_task_context",
      arguments: { request: "Draw.", view: "media" },
    });
    expect(result).toStrictEqual({
      messages: [{ role: "user", content: { type: "text", text: injected(MEDIA) } }],
      _meta: {
        "task-context/sha256": sha256(MEDIA),
        "task-context/truncated": false,
        "task-context/originalLength": MEDIA.length,
        "task-context/view": MEDIA_VIEW,
      },
    });
  });

  it("takes include and exclude as comma- or newline-separated headings; blank ones are absent", async () => {
    const client = await connect();
    const brief = selectContextView(CONTEXT_MD, CONTEXT_VIEW_PRESETS.brief).content;
    for (const include of [
      "What we are building, Key terminology",
      "What we are building\nKey terminology\n",
    ]) {
      const result = await client.getPrompt({
        name: "with_task_context",
        arguments: { request: "Draw.", include, exclude: "" },
      });
      expect(result.messages[0]?.content).toStrictEqual({ type: "text", text: injected(brief) });
      expect(result._meta?.["task-context/view"]).toStrictEqual({
        name: "custom",
        sections: ["What we are building", "Key terminology"],
        fileSha256: sha256(CONTEXT_MD),
      });
    }
    const whole = await client.getPrompt({
      name: "with_task_context",
      arguments: { request: "Draw.", view: " ", include: "" },
    });
    expect(whole.messages[0]?.content).toStrictEqual({ type: "text", text: injected(CONTEXT_MD) });
    expect(whole._meta).not.toHaveProperty("task-context/view");
  });

  it("refuses a name that is no preset with -32602 at /arguments/view", async () => {
    const refused = await protocolError(
      (await connect()).getPrompt({
        name: "with_task_context",
        arguments: { request: "Draw.", view: "tests" },
      }),
    );
    const message =
      '"tests" is no preset, and a view needs include or exclude. Name a preset (media, brief) or give the headings to include or exclude.';
    expect(refused).toStrictEqual({
      code: -32602,
      message: `Invalid arguments for prompt with_task_context: ${message}`,
      data: { issues: [{ path: "/arguments/view", message }] },
    });
  });

  it("refuses a view that selects nothing as a missing CONTEXT.md is refused: -32600 with the code", async () => {
    const refused = await protocolError(
      (await connect()).getPrompt({
        name: "with_task_context",
        arguments: { request: "Draw.", include: "Deployment" },
      }),
    );
    expect(refused).toStrictEqual({
      code: -32600,
      message: `View "custom" selects nothing of CONTEXT.md: it includes "Deployment" and excludes nothing. CONTEXT.md's headings are ${HEADINGS}. Name headings CONTEXT.md has, or write those sections into it.`,
      data: { code: "CONTEXT_VIEW_EMPTY" },
    });
  });
});

describe("views over MCP: the server's default view", () => {
  const MEDIA_META = {
    "task-context/sha256": sha256(MEDIA),
    "task-context/truncated": false,
    "task-context/originalLength": MEDIA.length,
    "task-context/view": MEDIA_VIEW,
  };

  it("is delivered wherever a request names no view: resource, tools and prompt", async () => {
    const client = await connect({ view: CONTEXT_VIEW_PRESETS.media });
    const { contents } = await client.readResource({ uri: CONTEXT_MD_URI });
    expect(contents).toStrictEqual([
      { uri: CONTEXT_MD_URI, mimeType: "text/markdown", text: MEDIA, _meta: MEDIA_META },
    ]);
    const got = await client.callTool({ name: "get_task_context", arguments: {} });
    expect(got.structuredContent).toMatchObject({ content: MEDIA, view: MEDIA_VIEW });
    const injected = await client.callTool({
      name: "inject_task_context",
      arguments: { prompt: "Draw." },
    });
    expect(injected.structuredContent).toMatchObject({
      text: `[Task Context]\n${MEDIA}\n\n[Request]\nDraw.`,
      view: MEDIA_VIEW,
    });
    const prompt = await client.getPrompt({
      name: "with_task_context",
      arguments: { request: "Draw." },
    });
    expect(prompt._meta).toStrictEqual(MEDIA_META);
  });

  it("gives way to a request's own view", async () => {
    const client = await connect({ view: CONTEXT_VIEW_PRESETS.media });
    const got = await client.callTool({
      name: "get_task_context",
      arguments: { view: { name: "brief" } },
    });
    expect(got.structuredContent).toMatchObject({
      content: selectContextView(CONTEXT_MD, CONTEXT_VIEW_PRESETS.brief).content,
      view: { name: "brief" },
    });
  });

  it("refuses a malformed default view before serving", () => {
    expect(() =>
      createTaskContextServer({
        workspace: memoryWorkspace({}),
        view: { name: "ops", include: [] },
      }),
    ).toThrow(ArgumentError);
  });
});
