// The demo's recipients for `task-context eval` (apps/demo-agent/eval/eval.yaml): the same code
// paths the demo takes — read_media to the vision model, generate_media to the image model, the
// brand checker spawned as an in-process subagent — pointed at each trial's workspace.
//
// Under the condition `none` the trial's workspace has no CONTEXT.md, and the task-context paths
// refuse by design (the media tools and the spawner require one). So each recipient then makes
// the call a plain tool makes, without task-context: the same request to the same model — as
// step 2 of the demo does for its baseline. What differs between conditions is the context alone.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Recipient, RecipientRequest } from "@task-context/cli/eval";
import { CONTEXT_FILENAME, loadO200kTokenizer, type Tokenizer } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { createMediaTools } from "@task-context/media-tools";
import { functionRunner, spawnSubagents } from "@task-context/spawner";
import { contextReceiverInstructions } from "@task-context/system-prompt";
import { generateImage, generateText } from "ai";
import { externalPrompt } from "../external-prompt.ts";
import { decodePng } from "../image/png.ts";
import { launchProject, SCREENSHOT_PATH } from "../launch-task.ts";
import { type ModelExchange, providerFor } from "../model-provider.ts";
import { type DemoModels, hasRealProvider, startModels } from "../models.ts";
import { BRAND_CHECK_CRITERIA, inProcessSubagent } from "../subagents/in-process-subagents.ts";
import { reviewRequest } from "../subagents/review-request.ts";

/** The models and the tokenizer, started once for the whole eval, on first use. */
let shared: Promise<{ models: DemoModels; tokenizer: Tokenizer }> | undefined;

/**
 * The demo's models (the stand-in, in the background so that the command can exit; real ones
 * with OPENAI_API_KEY or OPENAI_BASE_URL, as in the demo) and the o200k tokenizer.
 */
function sharedModels() {
  shared ??= Promise.all([
    startModels(process.env, hasRealProvider(process.env), { background: true }),
    loadO200kTokenizer(),
  ]).then(([models, tokenizer]) => ({ models, tokenizer }));
  return shared;
}

/** A trial's own provider, recording the exchanges of this trial only (trials may overlap). */
async function trialModels() {
  const { models, tokenizer } = await sharedModels();
  const exchanges: ModelExchange[] = [];
  const provider = providerFor(models.settings, exchanges);
  return {
    chat: provider.chat(models.settings.chatModel),
    image: provider.image(models.settings.imageModel),
    /** o200k tokens of every prompt the trial's models received, as the demo's table counts them. */
    tokens: () =>
      exchanges.reduce((sum, exchange) => sum + tokenizer.count(externalPrompt(exchange)), 0),
  };
}

/** Whether the trial's workspace has a CONTEXT.md (every condition but `none`). */
const hasContext = (request: RecipientRequest) =>
  existsSync(join(request.workspace, CONTEXT_FILENAME));

/** The options the AI SDK passes to a tool's execute: the recipient calls the tool directly. */
const callOptions = (request: RecipientRequest) => ({
  toolCallId: `${request.task}-${request.condition}-${request.trial}`,
  messages: [],
  context: {},
});

/** The task's one binary input (the screenshot), or a clear error naming the task. */
function imageInput(request: RecipientRequest): Uint8Array {
  const image = request.inputs.find((input) => input.text === undefined);
  if (image === undefined) {
    throw new Error(`task "${request.task}": give the screenshot as an input (inputs: [...png])`);
  }
  return image.data;
}

/**
 * The vision model through `read_media` (as the demo's step 2): the screenshot is placed in the
 * trial's workspace where the demo keeps it, and the tool loads CONTEXT.md from there.
 */
export const vision: Recipient = async (request) => {
  const models = await trialModels();
  const screenshot = imageInput(request);
  if (!hasContext(request)) {
    const { text } = await generateText({
      model: models.chat,
      maxRetries: 0,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: request.prompt },
            { type: "file", data: screenshot, mediaType: "image/png" },
          ],
        },
      ],
    });
    return { text, tokens: models.tokens() };
  }
  const workspace = nodeWorkspace(request.workspace);
  await workspace.writeFile(SCREENSHOT_PATH, screenshot);
  const { read_media } = createMediaTools({
    workspace,
    models: { understanding: models.chat },
    maxRetries: 0,
  });
  const read = await read_media.execute(
    { path: SCREENSHOT_PATH, prompt: request.prompt },
    callOptions(request),
  );
  if (!read.success) throw new Error(`read_media failed: ${read.error}`);
  return { text: read.text, tokens: models.tokens() };
};

/** `#RRGGBB` of an image's top-left pixel: the background the stand-in paints. */
function backgroundOf(png: Uint8Array): string {
  const image = decodePng(png);
  if (image === undefined) return "(not a PNG)";
  const hex = [...image.pixels.subarray(0, 3)].map((value) => value.toString(16).padStart(2, "0"));
  return `#${hex.join("").toUpperCase()}`;
}

/**
 * The image model through `generate_media` (as the demo's step 2, without its view option, so
 * that the eval's conditions decide what it receives). Answers the generated image's background
 * colour, which the stand-in takes from the first colour the prompt names.
 */
export const image: Recipient = async (request) => {
  const models = await trialModels();
  if (!hasContext(request)) {
    const generated = await generateImage({
      model: models.image,
      prompt: request.prompt,
      size: "1024x1024",
      maxRetries: 0,
    });
    return { text: backgroundOf(generated.image.uint8Array), tokens: models.tokens() };
  }
  const workspace = nodeWorkspace(request.workspace);
  const { generate_media } = createMediaTools({
    workspace,
    models: { image: models.image },
    maxRetries: 0,
  });
  const generated = await generate_media.execute(
    { type: "image", prompt: request.prompt, size: "1024x1024" },
    callOptions(request),
  );
  if (!generated.success) throw new Error(`generate_media failed: ${generated.error}`);
  const file = await workspace.readFile(generated.path);
  return { text: backgroundOf(file.bytes), tokens: models.tokens() };
};

/**
 * The brand checker, spawned as the demo spawns it (an in-process subagent through the spawner,
 * with the inherited CONTEXT.md and its Context Protocol block): it reviews the task's text input
 * against the brand rules and answers its review.json.
 */
export const brandCheck: Recipient = async (request) => {
  const models = await trialModels();
  const draft = request.inputs.find((input) => input.text !== undefined)?.text;
  if (draft === undefined) {
    throw new Error(`task "${request.task}": give the draft to review as a text input`);
  }
  const prompt = reviewRequest({
    instruction: request.prompt,
    criteria: BRAND_CHECK_CRITERIA,
    artifact: draft.trimEnd(),
  });
  if (!hasContext(request)) {
    const { text } = await generateText({
      model: models.chat,
      system: contextReceiverInstructions(),
      prompt,
      maxRetries: 0,
    });
    return { text, tokens: models.tokens() };
  }
  const workspacesRoot = join(request.workspace, ".subagents");
  const [result] = await spawnSubagents(
    request.workspace,
    [
      {
        id: "brand-check",
        subagentType: "review",
        prompt,
        taskData: {
          description: "Check an alt-text draft against the brand rules.",
          filesToModify: ["review.json"],
          filesForbidden: ["CONTEXT.md"],
        },
      },
    ],
    {
      runner: functionRunner(inProcessSubagent(models.chat)),
      workspacesRoot,
      project: launchProject(request.workspace),
    },
  );
  if (result?.status !== "success") {
    throw new Error(`the brand-check subagent ended ${result?.status}: ${result?.summary}`);
  }
  const review = await readFile(join(result.directory, "review.json"), "utf8");
  return { text: review, tokens: models.tokens() };
};
