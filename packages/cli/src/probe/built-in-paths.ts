import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { CONTEXT_FILENAME, type ContextView } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { createTaskContextServer } from "@task-context/mcp";
import {
  childProcessRunner,
  functionRunner,
  type SubagentRunner,
  spawnSubagents,
} from "@task-context/spawner";
import type { ProbeDelivery, ProbePath } from "./probe-paths.ts";

/** The request every path sends: the recipient's copy shows what came with it. */
export const PROBE_REQUEST = "task-context doctor --probe: reply with nothing.";

/**
 * The child-process subagent's program: writes its prompt and the CONTEXT.md in its directory
 * to `received.txt`, and answers the subagent output format.
 */
const CHILD_SCRIPT = `
const fs = require("node:fs");
let prompt = "";
process.stdin.on("data", (chunk) => { prompt += chunk; });
process.stdin.on("end", () => {
  const context = fs.existsSync("CONTEXT.md") ? fs.readFileSync("CONTEXT.md", "utf8") : "";
  fs.writeFileSync("received.txt", context + "\\n" + prompt);
  process.stdout.write(JSON.stringify({ status: "success", summary: "probed", "files-modified": [] }));
});`;

/**
 * Spawns one subagent `id` (a directory of its own in the canary workspace) with `runner`, which leaves what it received in
 * `received.txt` of its own directory; returns that text with the spawner's receipt and view.
 */
async function spawnProbe(
  directory: string,
  id: string,
  runner: SubagentRunner,
  view: ContextView | undefined,
): Promise<ProbeDelivery> {
  const [result] = await spawnSubagents(
    directory,
    [
      {
        id,
        subagentType: "implement",
        prompt: PROBE_REQUEST,
        ...(view === undefined ? {} : { view }),
      },
    ],
    { runner, workspacesRoot: join(directory, ".task-context-probe") },
  );
  if (result === undefined || result.status !== "success") {
    throw new Error(`the subagent did not run: ${result?.summary ?? "no result"}`);
  }
  const text = await readFile(join(result.directory, "received.txt"), "utf8");
  const delivery: ProbeDelivery = { text, receipt: result.contextSha256 };
  if (result.view !== undefined) delivery.view = result.view.name;
  if (view !== undefined) delivery.viewDefinition = view;
  return delivery;
}

/** What a built-in path is built with. */
export interface BuiltInPathOptions {
  /** The view of CONTEXT.md the recipient is given: it is then judged by the view's sections. */
  view?: ContextView;
}

/** A subagent started by the spawner's `childProcessRunner`: a Node process reading its copy. */
export function childProcessSubagentPath({ view }: BuiltInPathOptions = {}): ProbePath {
  return {
    name: "subagent (child process)",
    send: ({ directory }) =>
      spawnProbe(
        directory,
        "child-process",
        childProcessRunner({ command: process.execPath, args: ["-e", CHILD_SCRIPT] }),
        view,
      ),
  };
}

/** A subagent run in process by the spawner's `functionRunner`, reading its copy. */
export function functionRunnerSubagentPath({ view }: BuiltInPathOptions = {}): ProbePath {
  return {
    name: "subagent (function runner)",
    send: ({ directory }) =>
      spawnProbe(
        directory,
        "function-runner",
        functionRunner(async ({ directory: own, prompt }) => {
          const context = await readFile(join(own, CONTEXT_FILENAME), "utf8").catch(() => "");
          await writeFile(join(own, "received.txt"), `${context}\n${prompt}`);
          return { status: "success", summary: "probed", "files-modified": [] };
        }),
        view,
      ),
  };
}

/** The workspace MCP server's `inject_task_context`, called by the official MCP client in memory. */
export function mcpServerPath({ view }: BuiltInPathOptions = {}): ProbePath {
  return {
    name: "MCP server (inject_task_context)",
    async send({ directory }) {
      const server = createTaskContextServer({ workspace: nodeWorkspace(directory), view });
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await server.connect(serverTransport);
      const client = new Client({ name: "task-context-probe", version: "1.0.0" });
      await client.connect(clientTransport);
      try {
        const result = await client.callTool({
          name: "inject_task_context",
          arguments: { prompt: PROBE_REQUEST },
        });
        const content = result.content as Array<{ type: string; text?: string }> | undefined;
        if (result.isError === true) {
          throw new Error(content?.map((part) => part.text ?? "").join(" ") ?? "a tool error");
        }
        const structured = result.structuredContent as {
          text: string;
          sha256: string;
          view?: { name: string };
        };
        const delivery: ProbeDelivery = { text: structured.text, receipt: structured.sha256 };
        if (structured.view !== undefined) delivery.view = structured.view.name;
        if (view !== undefined) delivery.viewDefinition = view;
        return delivery;
      } finally {
        await client.close();
        await server.close();
      }
    },
  };
}
