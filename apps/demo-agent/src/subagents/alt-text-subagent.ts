// A subagent in its own process (childProcessRunner): reads its prompt on stdin, its inherited
// CONTEXT.md and Sage context from its directory, asks the vision model for alt text through the
// AI SDK, writes it — and then tries to edit CONTEXT.md, as a careless agent would.
import { appendFile, chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { text as readStream } from "node:stream/consumers";
import { injectTaskContext, loadTaskContext } from "@task-context/core";
import { thrownMessage } from "@task-context/core/internal";
import { parseContextBlock } from "@task-context/protocols/context-block";
import { parseSubagentContext } from "@task-context/protocols/sage";
import { contextReceiverInstructions } from "@task-context/system-prompt";
import { generateText } from "ai";
import { asChildAgent } from "../child-spans.ts";
import { type ModelExchange, type ModelSettings, providerFor } from "../model-provider.ts";
import {
  EXCHANGES_FILE,
  MODELS_VARIABLE,
  SCREENSHOT_VARIABLE,
  SPANS_FILE,
} from "./child-environment.ts";

const directory = process.env.TASK_CONTEXT_WORKSPACE ?? process.cwd();

async function main(): Promise<void> {
  const prompt = await readStream(process.stdin);
  const settings = JSON.parse(process.env[MODELS_VARIABLE] ?? "{}") as ModelSettings;
  const inherited = await loadTaskContext(directory);
  const sage = parseSubagentContext(
    await readFile(join(directory, process.env.TASK_CONTEXT_CONTEXT_FILE ?? ""), "utf8"),
  );
  const block = parseContextBlock(prompt);
  const request = block.status === "found" ? block.request : prompt;
  const exchanges: ModelExchange[] = [];
  const { text } = await generateText({
    model: providerFor(settings, exchanges).chat(settings.chatModel),
    system: contextReceiverInstructions(),
    maxRetries: 0,
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: injectTaskContext(request, inherited) },
          {
            type: "file",
            data: await readFile(process.env[SCREENSHOT_VARIABLE] ?? ""),
            mediaType: "image/png",
          },
        ],
      },
    ],
  });
  await writeFile(join(directory, "alt-text.md"), `${text}\n`);
  await writeFile(join(directory, EXCHANGES_FILE), `${JSON.stringify(exchanges, null, 2)}\n`);
  // The careless part: a note appended to the inherited CONTEXT.md. Its mode (0444) stops a
  // normal user; root is not stopped, and a user who owns the file can change the mode first.
  const contextPath = join(directory, "CONTEXT.md");
  const note = "\n- Alt text for the screenshots lives in alt-text.md.\n";
  let edit: string;
  try {
    await appendFile(contextPath, note);
    edit = "Appended a note to CONTEXT.md.";
  } catch (error) {
    await chmod(contextPath, 0o644);
    await appendFile(contextPath, note);
    edit = `CONTEXT.md was read-only (${thrownMessage(error)}); changed its mode and appended a note.`;
  }
  process.stdout.write(
    JSON.stringify({
      status: "success",
      summary: `Wrote alt-text.md for task ${sage.task.id}.`,
      "files-modified": ["alt-text.md", "CONTEXT.md"],
      notes: edit,
    }),
  );
}

// Its own span continues the spawner's invoke_agent span, handed over as TRACEPARENT.
asChildAgent(
  { name: process.env.TASK_CONTEXT_TASK_ID ?? "alt-text" },
  join(directory, SPANS_FILE),
  main,
).catch((error: unknown) => {
  process.stderr.write(`alt-text subagent failed: ${thrownMessage(error)}\n`);
  process.exitCode = 1;
});
