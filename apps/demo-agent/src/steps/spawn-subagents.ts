// Step 3: four subagents through the spawner — two in this process, two in their own processes —
// each with the inherited CONTEXT.md (read-only), its Sage context file and a Context Protocol
// block at the start of its prompt. One child process edits CONTEXT.md; the spawner notices. The
// other reads its context only through MCP, from the workspace server over stdio. A fifth is a
// LangGraph subgraph, given its view of CONTEXT.md by @task-context/langgraph.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadTaskContext } from "@task-context/core";
import { sha256Hex } from "@task-context/core/internal";
import {
  childProcessRunner,
  functionRunner,
  type SubagentResult,
  type SubagentSpawnEvent,
  type SubagentTask,
  spawnSubagents,
} from "@task-context/spawner";
import type { DemoContext } from "../demo-context.ts";
import { externalPrompt } from "../external-prompt.ts";
import { launchProject, SCREENSHOT_PATH } from "../launch-task.ts";
import type { ModelExchange } from "../model-provider.ts";
import {
  EXCHANGES_FILE,
  MCP_SERVER_VARIABLE,
  MCP_SESSION_FILE,
  MODELS_VARIABLE,
  SCREENSHOT_VARIABLE,
} from "../subagents/child-environment.ts";
import { BRAND_CHECK_CRITERIA, inProcessSubagent } from "../subagents/in-process-subagents.ts";
import { MCP_SERVER_BIN, mcpServerCommand } from "../subagents/mcp-server-command.ts";
import type { McpSession } from "../subagents/mcp-session.ts";
import { reviewRequest } from "../subagents/review-request.ts";
import type { MediaStepResult } from "./call-media-tools.ts";
import { langGraphSubagent } from "./langgraph-subagent.ts";

const here = dirname(fileURLToPath(import.meta.url));

/** What the spawner set up for one subagent, read when it started. */
interface Spawned {
  event: SubagentSpawnEvent;
  runner: string;
  contextSha256: string;
  contextTruncated: boolean;
  contextMd: string;
  sageXml: string;
}

/** How each runner is named in the progress, the trace and the table. */
const RUNNERS = {
  inProcess: "in process",
  childProcess: "child process",
  mcpClient: "MCP client",
} as const;

/** The runners whose subagent leaves its model exchanges in {@link EXCHANGES_FILE}. */
const SEPARATE_PROCESSES: readonly string[] = [RUNNERS.childProcess, RUNNERS.mcpClient];

/**
 * The four tasks: the announcement and the brand check in process, the alt text in a child, the
 * release headline in a child that reads its context only through MCP.
 */
export function subagentTasks(media: MediaStepResult): {
  inProcess: SubagentTask[];
  childProcess: SubagentTask[];
  mcpClient: SubagentTask[];
} {
  return {
    inProcess: [
      {
        id: "announcement",
        subagentType: "implement",
        prompt: "Write the announcement post for the launch.",
        taskData: {
          description: "Write the announcement post for the Lumen 2.0 launch.",
          filesToModify: ["announcement.md"],
          instructions: ["Follow the brand rules in CONTEXT.md.", "At most 120 words."],
        },
      },
      {
        id: "brand-check",
        subagentType: "review",
        prompt: reviewRequest({
          instruction:
            "Check this alt-text draft, written by a model without the task context, against the brand rules.",
          criteria: BRAND_CHECK_CRITERIA,
          artifact: media.withoutContext,
        }),
        taskData: {
          description: "Check an alt-text draft against the brand rules.",
          filesToModify: ["review.json"],
          filesForbidden: ["CONTEXT.md"],
        },
      },
    ],
    childProcess: [
      {
        id: "alt-text",
        subagentType: "implement",
        prompt: "Write alt text for the launch screenshot.",
        taskData: {
          description: `Write alt text for ${SCREENSHOT_PATH}.`,
          filesToModify: ["alt-text.md"],
          filesForbidden: ["CONTEXT.md"],
        },
      },
    ],
    mcpClient: [
      {
        id: MCP_SUBAGENT_ID,
        subagentType: "implement",
        prompt: MCP_SUBAGENT_REQUEST,
        taskData: {
          description:
            "Write the release-notes headline for Lumen 2.0, reading the context over MCP.",
          filesToModify: ["headline.md"],
          filesForbidden: ["CONTEXT.md"],
          instructions: ["Follow the brand rules in CONTEXT.md.", "One line."],
        },
      },
    ],
  };
}

/** The id of the subagent that reads its context only through MCP. */
export const MCP_SUBAGENT_ID = "headline-via-mcp";

/** What the MCP subagent is asked: the request it hands to inject_task_context. */
export const MCP_SUBAGENT_REQUEST =
  "Write the release-notes headline for the launch: one line, following the brand rules.";

/** The lines that show what an MCP subagent read over MCP, checked against its copies. */
async function mcpLines(session: McpSession, setup: Spawned): Promise<string[]> {
  const copies = new Map([
    ["CONTEXT.md", { label: "its copy's", sha256: setup.contextSha256 }],
    [
      setup.event.contextFile,
      { label: `its ${setup.event.contextFile}'s`, sha256: await sha256Hex(setup.sageXml) },
    ],
  ]);
  const compared = (sha256: string, copy: { label: string; sha256: string } | undefined) =>
    copy === undefined
      ? `sha256 ${sha256.slice(0, 12)}`
      : copy.sha256 === sha256
        ? `sha256 ${sha256.slice(0, 12)} in its _meta, equal to ${copy.label}`
        : `sha256 ${sha256.slice(0, 12)} in its _meta, DIFFERENT from ${copy.label} (${copy.sha256.slice(0, 12)})`;
  return [
    `  over MCP (${MCP_SERVER_BIN} on stdio; server ${session.server.name} ${session.server.version}, protocol ${session.protocolVersion}):`,
    ...session.resources.map(
      (read) => `    read ${read.uri}: ${compared(read.sha256, copies.get(read.name))}`,
    ),
    ...session.tools.map(
      (call) =>
        `    called ${call.name}: the exact [Task Context] (sha256 ${call.sha256.slice(0, 12)}) and [Request] text its model received`,
    ),
  ];
}

/** Runs step 3. */
export async function runSubagents(
  demo: DemoContext,
  media: MediaStepResult,
): Promise<SubagentResult[]> {
  const { progress, trace, models } = demo;
  progress.start(
    3,
    "Five subagents inherit the task context (2 in process, 1 child process, 1 MCP client, 1 LangGraph subgraph)",
  );
  const spawned = new Map<string, Spawned>();
  const onSpawn = (runner: string) => async (event: SubagentSpawnEvent) => {
    const context = await loadTaskContext(event.directory);
    spawned.set(event.id, {
      event,
      runner,
      contextSha256: context.sha256,
      contextTruncated: context.truncated,
      contextMd: context.content,
      sageXml: await readFile(join(event.directory, event.contextFile), "utf8"),
    });
  };
  const tasks = subagentTasks(media);
  const firstExchange = models.exchanges.length;
  //#region spawnSubagents
  const common = {
    workspacesRoot: join(demo.outputRoot, "subagents"),
    project: launchProject(demo.workspaceRoot), // the <context> block each prompt starts with
    tokenizer: demo.tokenizer, // Sage context limits in o200k tokens
  };
  const mcpServer = await mcpServerCommand(); // node …/@task-context/mcp/dist/bin.js
  const [inProcess, childProcess, mcpClient] = await Promise.all([
    spawnSubagents(demo.workspaceRoot, tasks.inProcess, {
      ...common,
      runner: functionRunner(inProcessSubagent(models.chat)),
      onSpawn: onSpawn(RUNNERS.inProcess),
    }),
    spawnSubagents(demo.workspaceRoot, tasks.childProcess, {
      ...common,
      runner: childProcessRunner({
        command: process.execPath,
        args: [join(here, "../subagents/alt-text-subagent.ts")],
        env: {
          [MODELS_VARIABLE]: JSON.stringify(models.settings),
          [SCREENSHOT_VARIABLE]: join(demo.assetsRoot, "launch-screenshot.png"),
        },
      }),
      onSpawn: onSpawn(RUNNERS.childProcess),
    }),
    // Reads CONTEXT.md and its Sage file only through task-context-mcp, which it starts itself.
    spawnSubagents(demo.workspaceRoot, tasks.mcpClient, {
      ...common,
      runner: childProcessRunner({
        command: process.execPath,
        args: [join(here, "../subagents/mcp-client-subagent.ts")],
        env: {
          [MODELS_VARIABLE]: JSON.stringify(models.settings),
          [MCP_SERVER_VARIABLE]: JSON.stringify(mcpServer), // { command, args } of task-context-mcp
        },
      }),
      onSpawn: onSpawn(RUNNERS.mcpClient),
    }),
  ]);
  //#endregion
  const results = [...inProcess, ...childProcess, ...mcpClient];
  const inProcessExchanges = models.exchanges.slice(firstExchange);
  trace.section("3. Subagents: what each inherited");
  for (const result of results) {
    const setup = spawned.get(result.id);
    if (setup === undefined)
      throw new Error(`subagent ${result.id} never started: ${result.summary}`);
    const exchanges: ModelExchange[] = SEPARATE_PROCESSES.includes(setup.runner)
      ? JSON.parse(await readFile(join(result.directory, EXCHANGES_FILE), "utf8").catch(() => "[]"))
      : inProcessExchanges.filter((exchange) =>
          externalPrompt(exchange).includes(setup.event.prompt),
        );
    progress.detail(
      `${result.id} (${setup.runner}): ${result.status}, contextIntegrity: "${result.contextIntegrity}" — ${result.summary}`,
    );
    progress.detail(
      `  received: CONTEXT.md sha256 ${setup.contextSha256.slice(0, 12)} (read-only copy), ${setup.event.contextFile} (${demo.tokenizer.count(setup.sageXml)} tokens), a prompt that opens with its <context> block (${setup.event.prompt.split("\n").indexOf("</context>") + 1} lines)`,
    );
    const session: McpSession | undefined =
      setup.runner === RUNNERS.mcpClient
        ? (JSON.parse(
            await readFile(join(result.directory, MCP_SESSION_FILE), "utf8").catch(() => "null"),
          ) ?? undefined)
        : undefined;
    if (session !== undefined) progress.detail((await mcpLines(session, setup)).join("\n"));
    if (result.notes !== undefined) progress.detail(`  notes: ${result.notes.split("\n")[0]}`);
    trace.text(
      `### ${result.id} (${setup.runner}, ${setup.event.subagentType})\n\nDirectory \`${result.directory}\`. Inherited CONTEXT.md: sha256 \`${setup.contextSha256}\` (read-only copy, ${setup.contextMd.length} characters).`,
    );
    trace.block(`Its prompt (starts with the Context Protocol block)`, setup.event.prompt);
    trace.block(`Its Sage context file ${setup.event.contextFile}`, setup.sageXml, "xml");
    if (session !== undefined) {
      const received = session.resources.find((read) => read.name === "CONTEXT.md")?.sha256;
      trace.text(
        `It read its context only through MCP: it started \`${MCP_SERVER_BIN} ${result.directory}\` over stdio with the official MCP client, read the resources and called the tool below. The sha256 of each resource came in its \`_meta\`: CONTEXT.md's is \`${received}\`, ${received === setup.contextSha256 ? "the same as" : "NOT the same as"} the copy the spawner wrote.`,
      );
      trace.block(
        `What it read over MCP (${MCP_SESSION_FILE})`,
        JSON.stringify(session, null, 2),
        "json",
      );
    }
    for (const exchange of exchanges) {
      trace.block(`Prompt its model received (${exchange.path})`, externalPrompt(exchange));
    }
    for (const file of result.filesModified.filter((name) => name !== "CONTEXT.md")) {
      const written = await readFile(join(result.directory, file), "utf8").catch(() => undefined);
      if (written !== undefined) trace.block(`${file}, as it wrote it`, written.trimEnd());
    }
    trace.block(
      "Its result",
      JSON.stringify(
        {
          status: result.status,
          summary: result.summary,
          filesModified: result.filesModified,
          notes: result.notes,
          warning: result.warning,
          contextIntegrity: result.contextIntegrity,
        },
        null,
        2,
      ),
      "json",
    );
    demo.recipients.push({
      recipient: `subagent ${result.id}`,
      kind: `subagent (${setup.runner})`,
      // Through MCP, what it received is what the resource said in its _meta (nothing if it failed).
      contextSha256:
        setup.runner === RUNNERS.mcpClient
          ? session?.resources.find((read) => read.name === "CONTEXT.md")?.sha256
          : setup.contextSha256,
      tokens: demo.tokenizer.count(`${setup.event.prompt}\n${setup.contextMd}\n${setup.sageXml}`),
      truncated: setup.contextTruncated,
    });
  }
  const modified = results.filter((result) => result.contextIntegrity === "modified");
  const warned = modified[0]?.warning;
  if (warned !== undefined) progress.detail(`warning for the parent: ${warned}`);
  const answered = await langGraphSubagent(demo);
  const succeeded = results.filter((result) => result.status === "success").length;
  progress.done(
    3,
    `${succeeded + (answered ? 1 : 0)} of ${results.length + 1} succeeded; ${modified.length} modified its CONTEXT.md`,
  );
  return results;
}
