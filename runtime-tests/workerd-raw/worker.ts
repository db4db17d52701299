// Answers GET /<check> with the JSON result of calls into the built packages; smoke.test.ts asserts
// the answers. Runs on workerd without nodejs_compat (see wrangler.jsonc).
import {
  approximateTokenizer,
  injectTaskContext,
  loadO200kTokenizer,
  loadTaskContext,
  memoryWorkspace,
} from "@task-context/core";
import { createMediaTools, taskContextMiddleware } from "@task-context/media-tools";
import { validate } from "@task-context/protocols";
import { parseContextBlock } from "@task-context/protocols/context-block";
import { CONTEXT_MD_TEMPLATE, lintContextMd } from "@task-context/protocols/context-md";
import { generateContext, parseSubagentContext } from "@task-context/protocols/sage";
import { buildSystemPrompt } from "@task-context/system-prompt";
import { generateText, type Tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";

const CONTEXT = "Building Lumen.";
const workspace = () => memoryWorkspace({ "CONTEXT.md": CONTEXT, "home.png": PNG });
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

/** What code generation from strings does here: production Workers refuse it. */
function codeGeneration(run: () => unknown) {
  try {
    return { allowed: true, value: run() };
  } catch (error) {
    return { allowed: false, name: (error as Error).name, message: (error as Error).message };
  }
}

/** An AI SDK test model that answers "LUMEN." and records what it was sent. */
const model = () =>
  new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: "text", text: "LUMEN." }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
      },
      warnings: [],
    }),
  });

const checks: Record<string, () => unknown> = {
  "/runtime": () => ({
    userAgent: navigator.userAgent,
    process: typeof (globalThis as { process?: unknown }).process,
  }),
  "/new-function": () => codeGeneration(() => new Function("return 1")()),
  // biome-ignore lint/security/noGlobalEval: the check is that workerd refuses it.
  "/eval": () => codeGeneration(() => globalThis.eval("1")),
  "/load-task-context": async () => {
    const context = await loadTaskContext(workspace());
    return { context, injected: injectTaskContext("Describe it.", context) };
  },
  "/o200k": async () =>
    (await loadO200kTokenizer()).count("Lumen is a note-taking app. ルーメンはノートアプリです。"),
  "/validate": () => [
    validate("context-block.v1", {
      version: 1,
      project: { path: "/p", stack: "s" },
      conventions: { summary: "x" },
    }),
    validate("context-block.v1", { version: 1, project: { path: "/p", stack: "s" } }),
  ],
  "/parse-context-block": () =>
    parseContextBlock(
      "<context>\nproject:\n  path: /p\n  stack: s\nconventions:\n  summary: x\n</context>\nGo",
    ),
  "/generate-context": async () => {
    const files = workspace();
    const { path } = await generateContext(
      { taskId: "task-7", subagentType: "implement", taskData: { description: "Dark mode" } },
      { workspace: files, tokenizer: approximateTokenizer },
    );
    const xml = new TextDecoder().decode((await files.readFile(path)).bytes);
    return { path, description: parseSubagentContext(xml).task.description };
  },
  "/lint-context-md": () => lintContextMd(CONTEXT_MD_TEMPLATE).issues.length,
  "/build-system-prompt": () =>
    buildSystemPrompt({ base: "Base.", tools: ["generate_image"], canSpawnSubagents: true }).length,
  "/read-media": async () => {
    const understanding = model();
    const tools = createMediaTools({ workspace: workspace(), models: { understanding } });
    const result = await (tools.read_media as Tool).execute?.(
      { path: "home.png", prompt: "Header?" },
      { toolCallId: "1", messages: [], context: {} },
    );
    return { result, sent: understanding.doGenerateCalls[0]?.prompt[0]?.content };
  },
  "/middleware": async () => {
    const wrapped = model();
    const { text } = await generateText({
      model: wrapLanguageModel({
        model: wrapped,
        middleware: taskContextMiddleware({ workspace: workspace() }),
      }),
      prompt: "Headlines?",
    });
    return { text, sent: wrapped.doGenerateCalls[0]?.prompt };
  },
};

export default {
  async fetch(request: Request): Promise<Response> {
    const check = checks[new URL(request.url).pathname];
    if (check === undefined) return new Response("no such check", { status: 404 });
    return Response.json(await check());
  },
};
