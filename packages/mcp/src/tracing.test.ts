import type { Client } from "@modelcontextprotocol/client";
import { memoryWorkspace } from "@task-context/core";
import { deliveredContext, recordSpans, type SpanRecorder } from "@task-context/trace-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONTEXT_MD_URI, createTaskContextServer, sageContextUri } from "./index.ts";
import { connectInMemory } from "./test-support/connect.ts";
import { CONTEXT, MISSING_MESSAGE, SAGE_XML } from "./test-support/fixtures.ts";

let recorder: SpanRecorder;
const clients: Client[] = [];
beforeEach(() => {
  recorder = recordSpans();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await recorder.stop();
});

async function connect(files: Record<string, string>): Promise<Client> {
  const server = createTaskContextServer({ workspace: memoryWorkspace(files) });
  const client = await connectInMemory(server);
  clients.push(client);
  return client;
}

const toolSpan = (name: string) => ({
  name: `tools/call ${name}`,
  scope: "@task-context/mcp",
  kind: "server",
  parent: null,
});

const toolAttributes = (name: string) => ({
  "mcp.method.name": "tools/call",
  "gen_ai.operation.name": "execute_tool",
  "gen_ai.tool.name": name,
  "task_context.recipient.kind": "mcp-tool",
  "task_context.recipient.id": name,
});

describe("the MCP server with an OpenTelemetry SDK registered", () => {
  it("records a tools/call span with the context each context tool delivered", async () => {
    const client = await connect({ "CONTEXT.md": CONTEXT });
    await client.callTool({ name: "get_task_context", arguments: {} });
    await client.callTool({ name: "inject_task_context", arguments: { prompt: "Draw a logo." } });

    expect(recorder.records()).toStrictEqual(
      ["get_task_context", "inject_task_context"].map((name) => ({
        ...toolSpan(name),
        status: { code: "unset" },
        attributes: {
          ...toolAttributes(name),
          ...deliveredContext(CONTEXT),
          "task_context.outcome": "success",
        },
        exceptions: [],
      })),
    );
  });

  it("records a tool error for a missing CONTEXT.md with its code", async () => {
    const client = await connect({});
    const result = await client.callTool({ name: "get_task_context", arguments: {} });

    expect(result.isError).toBe(true);
    expect(recorder.records()).toStrictEqual([
      {
        ...toolSpan("get_task_context"),
        status: { code: "error", message: MISSING_MESSAGE },
        attributes: {
          ...toolAttributes("get_task_context"),
          "error.type": "TASK_CONTEXT_MISSING",
          "task_context.outcome": "error",
        },
        exceptions: [],
      },
    ]);
  });

  it("records a resources/read span for CONTEXT.md, and a failed read", async () => {
    const client = await connect({ "CONTEXT.md": CONTEXT });
    await client.readResource({ uri: CONTEXT_MD_URI });
    const missing = await connect({});
    await expect(missing.readResource({ uri: CONTEXT_MD_URI })).rejects.toThrow();

    const resource = {
      name: "resources/read",
      scope: "@task-context/mcp",
      kind: "server",
      parent: null,
    };
    const attributes = {
      "mcp.method.name": "resources/read",
      "mcp.resource.uri": CONTEXT_MD_URI,
      "task_context.recipient.kind": "mcp-resource",
      "task_context.recipient.id": CONTEXT_MD_URI,
    };
    const [read, failed] = recorder.records();
    expect(read).toStrictEqual({
      ...resource,
      status: { code: "unset" },
      attributes: {
        ...attributes,
        ...deliveredContext(CONTEXT),
        "task_context.outcome": "success",
      },
      exceptions: [],
    });
    expect(failed).toStrictEqual({
      ...resource,
      status: { code: "error", message: MISSING_MESSAGE },
      attributes: { ...attributes, "error.type": "-32602", "task_context.outcome": "error" },
      exceptions: [MISSING_MESSAGE],
    });
  });
});

describe("the MCP server continues the trace a request's _meta names", () => {
  /** The client's span, as another process's MCP client hands it over in `_meta`. */
  const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  const CLIENT_SPAN_ID = "00f067aa0ba902b7";
  const _meta = {
    traceparent: `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01`,
    tracestate: "vendor=opaque",
  };

  it("tool calls and resource reads (a template's too) are children of the client's span", async () => {
    const client = await connect({ "CONTEXT.md": CONTEXT, ".sage/context/T-1.xml": SAGE_XML });
    await client.callTool({ name: "get_task_context", arguments: {}, _meta });
    await client.readResource({ uri: CONTEXT_MD_URI, _meta });
    await client.readResource({ uri: sageContextUri("T-1"), _meta });
    // Without _meta, a root span as before.
    await client.callTool({ name: "get_task_context", arguments: {} });

    expect(
      recorder.finished().map((span) => ({
        name: span.name,
        traceId: span.spanContext().traceId === TRACE_ID,
        parent: span.parentSpanContext?.spanId ?? null,
        traceState: span.spanContext().traceState?.serialize() ?? null,
      })),
    ).toStrictEqual([
      {
        name: "tools/call get_task_context",
        traceId: true,
        parent: CLIENT_SPAN_ID,
        traceState: "vendor=opaque",
      },
      {
        name: "resources/read",
        traceId: true,
        parent: CLIENT_SPAN_ID,
        traceState: "vendor=opaque",
      },
      {
        name: "resources/read",
        traceId: true,
        parent: CLIENT_SPAN_ID,
        traceState: "vendor=opaque",
      },
      { name: "tools/call get_task_context", traceId: false, parent: null, traceState: null },
    ]);
  });

  it("ignores a traceparent that is not valid", async () => {
    const client = await connect({ "CONTEXT.md": CONTEXT });
    await client.callTool({
      name: "get_task_context",
      arguments: {},
      _meta: { traceparent: "not-a-traceparent", tracestate: 42 },
    });

    expect(recorder.finished().map((span) => span.parentSpanContext)).toStrictEqual([undefined]);
  });
});

describe("the MCP server without an OpenTelemetry SDK", () => {
  it("answers and records nothing", async () => {
    await recorder.stop();
    const client = await connect({ "CONTEXT.md": CONTEXT });
    const result = await client.callTool({ name: "get_task_context", arguments: {} });

    expect(result.structuredContent).toMatchObject({ content: CONTEXT });
    expect(recorder.finished()).toStrictEqual([]);
  });
});
