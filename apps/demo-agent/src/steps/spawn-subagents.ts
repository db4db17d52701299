// Step 3: three subagents through the spawner — two in this process, one in its own process —
// each with the inherited CONTEXT.md (read-only), its Sage context file and a Context Protocol
// block at the start of its prompt. The child process edits CONTEXT.md; the spawner notices.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadTaskContext } from "@task-context/core";
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
import type { ModelExchange } from "../models.ts";
import {
  EXCHANGES_FILE,
  MODELS_VARIABLE,
  SCREENSHOT_VARIABLE,
} from "../subagents/child-environment.ts";
import { BRAND_CHECK_CRITERIA, inProcessSubagent } from "../subagents/in-process-subagents.ts";
import { reviewRequest } from "../subagents/review-request.ts";
import type { MediaStepResult } from "./call-media-tools.ts";

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

/** The three tasks: the announcement and the brand check in process, the alt text in a child. */
export function subagentTasks(media: MediaStepResult): {
  inProcess: SubagentTask[];
  childProcess: SubagentTask[];
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
  };
}

/** Runs step 3. */
export async function runSubagents(
  demo: DemoContext,
  media: MediaStepResult,
): Promise<SubagentResult[]> {
  const { progress, trace, models } = demo;
  progress.start(3, "Three subagents inherit the task context (2 in process, 1 child process)");
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
  const [inProcess, childProcess] = await Promise.all([
    spawnSubagents(demo.workspaceRoot, tasks.inProcess, {
      ...common,
      runner: functionRunner(inProcessSubagent(models.chat)),
      onSpawn: onSpawn("in process"),
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
      onSpawn: onSpawn("child process"),
    }),
  ]);
  //#endregion
  const results = [...inProcess, ...childProcess];
  const inProcessExchanges = models.exchanges.slice(firstExchange);
  trace.section("3. Subagents: what each inherited");
  for (const result of results) {
    const setup = spawned.get(result.id);
    if (setup === undefined)
      throw new Error(`subagent ${result.id} never started: ${result.summary}`);
    const exchanges: ModelExchange[] =
      setup.runner === "child process"
        ? JSON.parse(
            await readFile(join(result.directory, EXCHANGES_FILE), "utf8").catch(() => "[]"),
          )
        : inProcessExchanges.filter((exchange) =>
            externalPrompt(exchange).includes(setup.event.prompt),
          );
    progress.detail(
      `${result.id} (${setup.runner}): ${result.status}, contextIntegrity: "${result.contextIntegrity}" — ${result.summary}`,
    );
    progress.detail(
      `  received: CONTEXT.md sha256 ${setup.contextSha256.slice(0, 12)} (read-only copy), ${setup.event.contextFile} (${demo.tokenizer.count(setup.sageXml)} tokens), a prompt that opens with its <context> block (${setup.event.prompt.split("\n").indexOf("</context>") + 1} lines)`,
    );
    if (result.notes !== undefined) progress.detail(`  notes: ${result.notes.split("\n")[0]}`);
    trace.text(
      `### ${result.id} (${setup.runner}, ${setup.event.subagentType})\n\nDirectory \`${result.directory}\`. Inherited CONTEXT.md: sha256 \`${setup.contextSha256}\` (read-only copy, ${setup.contextMd.length} characters).`,
    );
    trace.block(`Its prompt (starts with the Context Protocol block)`, setup.event.prompt);
    trace.block(`Its Sage context file ${setup.event.contextFile}`, setup.sageXml, "xml");
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
      contextSha256: setup.contextSha256,
      tokens: demo.tokenizer.count(`${setup.event.prompt}\n${setup.contextMd}\n${setup.sageXml}`),
      truncated: setup.contextTruncated,
    });
  }
  const modified = results.filter((result) => result.contextIntegrity === "modified");
  const warned = modified[0]?.warning;
  if (warned !== undefined) progress.detail(`warning for the parent: ${warned}`);
  progress.done(
    3,
    `${results.filter((result) => result.status === "success").length} of ${results.length} succeeded; ${modified.length} modified its CONTEXT.md`,
  );
  return results;
}
