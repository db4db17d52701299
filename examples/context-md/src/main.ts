// Loads CONTEXT.md from ./workspace and prints what a multimodal tool and a subagent receive.
// Runs on embedded files only: no accounts, no network.
import { chmod, copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  defineContextTool,
  injectTaskContext,
  loadTaskContext,
  memoryWorkspace,
  splitTaskContext,
} from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";

const here = dirname(fileURLToPath(import.meta.url));
const workspaceRoot = join(here, "..", "workspace");
const rule = (title: string) =>
  console.log(`\n── ${title} ${"─".repeat(Math.max(0, 70 - title.length))}`);

const context = await loadTaskContext(workspaceRoot);
rule("1. CONTEXT.md as loaded");
console.log(`workspace: ${workspaceRoot}`);
console.log(`characters: ${context.content.length} (limit 10000), truncated: ${context.truncated}`);
console.log(`sha256: ${context.sha256}`);

rule("2. What a multimodal tool sends to the external model");
const understandImage = defineContextTool({
  name: "understand_image",
  description: "Answer a question about an image in the workspace.",
  parameters: {
    type: "object",
    properties: { path: { type: "string" }, prompt: { type: "string" } },
    required: ["path", "prompt"],
  },
  workspace: nodeWorkspace(workspaceRoot),
  execute(input: { path: string; prompt: string }, { prependTaskContext }) {
    // A real tool calls a vision model here; the example prints the prompt it would send.
    return { path: input.path, externalPrompt: prependTaskContext(input.prompt) };
  },
});
console.log("schema the model sees:", JSON.stringify(understandImage.parameters));
const result = await understandImage.execute({
  path: "screenshots/01-editor.png",
  prompt: "What does the large text at the top of this screenshot say?",
});
if (result.success) console.log(result.externalPrompt);

rule("3. What a subagent receives");
const subagentRoot = await mkdtemp(join(tmpdir(), "task-context-example-subagent-"));
try {
  await copyFile(join(workspaceRoot, "CONTEXT.md"), join(subagentRoot, "CONTEXT.md"));
  await chmod(join(subagentRoot, "CONTEXT.md"), 0o444);
  const inherited = await loadTaskContext(subagentRoot);
  console.log(`CONTEXT.md copied read-only (mode 0444) into ${subagentRoot}`);
  console.log(`same content as the parent's: ${inherited.sha256 === context.sha256}`);
  const subagentPrompt = injectTaskContext("Write alt text for screenshot 3.", inherited);
  console.log(`its prompt starts: ${JSON.stringify(subagentPrompt.slice(0, 60))}…`);
  console.log(
    `and splits back to the request: ${JSON.stringify(splitTaskContext(subagentPrompt).prompt)}`,
  );
} finally {
  await rm(subagentRoot, { recursive: true, force: true });
}

rule("4. A tool called before CONTEXT.md exists");
const failed = await understandImage.execute(
  { path: "x.png", prompt: "Describe it." },
  { workspace: memoryWorkspace() },
);
console.log(JSON.stringify(failed, null, 2));

rule("5. A CONTEXT.md over the limit");
const oversized = await understandImage.execute(
  { path: "x.png", prompt: "Describe it." },
  {
    workspace: memoryWorkspace({
      "CONTEXT.md": `${context.content}\n${"More detail. ".repeat(1_000)}`,
    }),
  },
);
if (oversized.success) console.log(`warning: ${oversized.warning}`);
