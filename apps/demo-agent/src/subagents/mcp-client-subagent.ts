// A subagent in its own process that receives its task context only through MCP, as any MCP
// client would: it starts the workspace server `task-context-mcp <its directory>` over stdio with
// the official MCP client, reads CONTEXT.md and its Sage document as resources, and asks the
// inject_task_context tool for the exact text to send its model. It imports nothing of
// @task-context/core and opens no file in its directory but the ones it writes.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { text as readStream } from "node:stream/consumers";
import { Client, type Resource } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { parseContextBlock } from "@task-context/protocols/context-block";
import { parseSubagentContext } from "@task-context/protocols/sage";
import { contextReceiverInstructions } from "@task-context/system-prompt";
import { generateText } from "ai";
import { asChildAgent } from "../child-spans.ts";
import { type ModelExchange, type ModelSettings, providerFor } from "../model-provider.ts";
import {
  EXCHANGES_FILE,
  MCP_SERVER_VARIABLE,
  MCP_SESSION_FILE,
  MODELS_VARIABLE,
  SPANS_FILE,
} from "./child-environment.ts";
import type { McpResourceRead, McpServerCommand, McpSession } from "./mcp-session.ts";
import { traceMeta } from "./trace-meta.ts";

/** The file the subagent writes. */
const HEADLINE_FILE = "headline.md";

/** The text of a thrown value (core's `thrownMessage` is not imported here, on purpose). */
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** `task-context/sha256` from a `_meta`, or a clear error when the server sent none. */
function sha256In(meta: Record<string, unknown> | undefined, what: string): string {
  const sha256 = meta?.["task-context/sha256"];
  if (typeof sha256 !== "string") throw new Error(`${what} came without task-context/sha256.`);
  return sha256;
}

/** Reads the listed resource called `name` and records the read. */
async function readNamedResource(
  client: Client,
  resources: readonly Resource[],
  name: string,
): Promise<McpResourceRead & { text: string }> {
  const listed = resources.find((resource) => resource.name === name);
  if (listed === undefined) {
    throw new Error(
      `the MCP server lists no resource named ${name} (it lists ${resources.map((resource) => resource.name).join(", ")}).`,
    );
  }
  const [content] = (await client.readResource({ uri: listed.uri, ...traceMeta() })).contents;
  if (content === undefined || !("text" in content)) {
    throw new Error(`the resource ${listed.uri} returned no text.`);
  }
  return {
    uri: listed.uri,
    name,
    sha256: sha256In(content._meta, listed.uri),
    characters: content.text.length,
    text: content.text,
  };
}

/** What the subagent received over MCP: the text to send its model, and the session's record. */
interface Received {
  injected: string;
  taskId: string;
  session: McpSession;
}

/** Starts the workspace server on `directory`, reads the context and injects it into `request`. */
async function receiveOverMcp(
  client: Client,
  server: McpServerCommand,
  directory: string,
  request: string,
): Promise<Received> {
  //#region mcpClient
  // task-context-mcp <its directory>, over stdio, as an MCP client's configuration starts it.
  await client.connect(
    new StdioClientTransport({ command: server.command, args: [...server.args, directory] }),
  );
  const { resources } = await client.listResources();
  const contextMd = await readNamedResource(client, resources, "CONTEXT.md"); // sha256 in _meta
  const sage = await readNamedResource(
    client,
    resources,
    process.env.TASK_CONTEXT_CONTEXT_FILE ?? "",
  );
  // The exact [Task Context]…[Request]… text to send the model, and the sha256 of its context.
  const injection = await client.callTool({
    name: "inject_task_context",
    arguments: { prompt: request },
    ...traceMeta(), // _meta.traceparent: the server's span continues this subagent's trace
  });
  //#endregion
  const structured = injection.structuredContent as
    | { text?: unknown; sha256?: unknown }
    | undefined;
  if (
    injection.isError === true ||
    typeof structured?.text !== "string" ||
    typeof structured.sha256 !== "string"
  ) {
    throw new Error(`inject_task_context failed: ${JSON.stringify(injection.content)}`);
  }
  if (structured.sha256 !== contextMd.sha256) {
    throw new Error(
      `CONTEXT.md changed between the resource (sha256 ${contextMd.sha256}) and the tool (sha256 ${structured.sha256}).`,
    );
  }
  const identity = client.getServerVersion();
  return {
    injected: structured.text,
    taskId: parseSubagentContext(sage.text).task.id,
    session: {
      server: { name: identity?.name ?? "unknown", version: identity?.version ?? "unknown" },
      protocolVersion: client.getNegotiatedProtocolVersion() ?? "unknown",
      resources: [contextMd, sage].map(({ text: _text, ...read }) => read),
      tools: [
        { name: "inject_task_context", arguments: { prompt: request }, sha256: structured.sha256 },
      ],
    },
  };
}

const directory = process.env.TASK_CONTEXT_WORKSPACE ?? process.cwd();

/** The server's spans too, when this subagent records its own: task-context-mcp, `--import`ed. */
function recordingServerSpans(server: McpServerCommand): McpServerCommand {
  if (process.env.TRACEPARENT === undefined) return server;
  const recorder = new URL("./record-mcp-server-spans.ts", import.meta.url).href;
  return { ...server, args: ["--import", recorder, ...server.args] };
}

async function main(): Promise<void> {
  const prompt = await readStream(process.stdin);
  const settings = JSON.parse(process.env[MODELS_VARIABLE] ?? "{}") as ModelSettings;
  const server = recordingServerSpans(
    JSON.parse(process.env[MCP_SERVER_VARIABLE] ?? "{}") as McpServerCommand,
  );
  const block = parseContextBlock(prompt);
  const request = block.status === "found" ? block.request : prompt;
  const client = new Client({ name: "task-context-demo-subagent", version: "1.0.0" });
  let received: Received;
  try {
    received = await receiveOverMcp(client, server, directory, request);
  } finally {
    await client.close(); // the server exits when its stdin closes
  }
  const { injected, taskId, session } = received;

  const exchanges: ModelExchange[] = [];
  const { text } = await generateText({
    model: providerFor(settings, exchanges).chat(settings.chatModel),
    system: contextReceiverInstructions(),
    maxRetries: 0,
    prompt: injected,
  });
  await writeFile(join(directory, HEADLINE_FILE), `${text}\n`);
  await writeFile(join(directory, EXCHANGES_FILE), `${JSON.stringify(exchanges, null, 2)}\n`);
  await writeFile(join(directory, MCP_SESSION_FILE), `${JSON.stringify(session, null, 2)}\n`);
  process.stdout.write(
    JSON.stringify({
      status: "success",
      summary: `Wrote ${HEADLINE_FILE} for task ${taskId}.`,
      "files-modified": [HEADLINE_FILE],
      notes: `Got its task context only through MCP (${session.resources.length} resources, ${session.tools.length} tool call); read no file of its directory itself.`,
    }),
  );
}

// Its own span continues the spawner's invoke_agent span, handed over as TRACEPARENT.
asChildAgent(
  { name: process.env.TASK_CONTEXT_TASK_ID ?? "headline-via-mcp" },
  join(directory, SPANS_FILE),
  main,
).catch((error: unknown) => {
  process.stderr.write(`MCP subagent failed: ${messageOf(error)}\n`);
  process.exitCode = 1;
});
