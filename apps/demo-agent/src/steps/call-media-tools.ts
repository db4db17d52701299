// Step 2: the main agent's media tools call the vision and image models through the AI SDK, with
// the task context injected; first, the same question without it, to show what goes wrong.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  CONTEXT_VIEW_PRESETS,
  injectTaskContext,
  memoryWorkspace,
  splitTaskContext,
  type TaskContext,
} from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { createMediaTools } from "@task-context/media-tools";
import { generateText } from "ai";
import type { DemoContext } from "../demo-context.ts";
import { contextHashOf, externalPrompt, externalRecipient } from "../external-prompt.ts";
import { decodePng } from "../image/png.ts";
import {
  HERO_IMAGE_REQUEST,
  LAUNCH_CONTEXT_MD,
  SCREENSHOT_PATH,
  SCREENSHOT_QUESTION,
} from "../launch-task.ts";

/** What step 2 hands on: the answers, for the subagents to work with. */
export interface MediaStepResult {
  /** The vision model's answer without the task context (the misreading). */
  withoutContext: string;
  /** Its answer through `read_media`, with the task context. */
  withContext: string;
}

/** The options the AI SDK passes to a tool's execute: the main agent calls its tools directly. */
const callOptions = (toolCallId: string) => ({ toolCallId, messages: [], context: {} });

/** A CONTEXT.md over the 10 000-character limit: the launch context, then pages of meeting notes. */
export function oversizedContextMd(): string {
  const note =
    "- Agreed: the announcement goes out on Tuesday at 09:00; alt text for all six screenshots.\n";
  return `${LAUNCH_CONTEXT_MD}\n## Meeting notes\n${note.repeat(Math.ceil(11_000 / note.length))}`;
}

/**
 * A fake OpenAI key, as someone might paste it into CONTEXT.md (assembled here, so that no
 * key-shaped literal sits in the source).
 */
export const PASTED_KEY = ["sk", "proj", "Demo0nly7kQ2vX9mR4tB8wL1cN6pZ3hJ5yF0aE2gU7sK"].join("-");

/** The launch context with {@link PASTED_KEY} added under "Other details". */
export function contextMdWithKey(): string {
  return `${LAUNCH_CONTEXT_MD.trimEnd()}\n- Staging image API key: ${PASTED_KEY}\n`;
}

/** `#RRGGBB` of an image's top-left pixel, or undefined when it cannot be decoded. */
function backgroundOf(png: Uint8Array): string | undefined {
  const image = decodePng(png);
  if (image === undefined) return undefined;
  const hex = [...image.pixels.subarray(0, 3)].map((value) => value.toString(16).padStart(2, "0"));
  return `#${hex.join("").toUpperCase()}`;
}

/**
 * `read_media` on the screenshot in a workspace whose CONTEXT.md is `contextMd`: its warning and the
 * prompt the vision model received.
 */
async function readScreenshotWith(
  demo: DemoContext,
  contextMd: string,
  screenshot: Uint8Array,
  toolCallId: string,
): Promise<{ warning: string | undefined; prompt: string }> {
  const { read_media } = createMediaTools({
    workspace: memoryWorkspace({ "CONTEXT.md": contextMd, [SCREENSHOT_PATH]: screenshot }),
    models: { understanding: demo.models.chat },
    maxRetries: 0,
  });
  const read = await read_media.execute(
    { path: SCREENSHOT_PATH, prompt: SCREENSHOT_QUESTION },
    callOptions(toolCallId),
  );
  if (!read.success) throw new Error(`read_media failed: ${read.error}`);
  return { warning: read.warning, prompt: externalPrompt(demo.models.exchanges.at(-1)) };
}

/** Runs step 2. */
export async function callMediaTools(
  demo: DemoContext,
  context: TaskContext,
): Promise<MediaStepResult> {
  const { progress, trace, models, tokenizer } = demo;
  progress.start(2, "read_media and generate_media call the models through the AI SDK");
  trace.section("2. Media tools: the exact external prompts");
  const screenshot = await readFile(join(demo.assetsRoot, "launch-screenshot.png"));
  const workspace = nodeWorkspace(demo.workspaceRoot);
  await workspace.writeFile(SCREENSHOT_PATH, screenshot);

  // Without task context: the question and the image, as a tool without task-context sends them.
  const baseline = await generateText({
    model: models.chat,
    maxRetries: 0,
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: SCREENSHOT_QUESTION },
          { type: "file", data: screenshot, mediaType: "image/png" },
        ],
      },
    ],
  });
  const bare = externalPrompt(models.exchanges.at(-1));
  progress.detail(`without task context, the vision model says: ${baseline.text}`);
  trace.text("First, the question without task context, as a plain tool would send it:");
  trace.block("Prompt received by the vision model (no context)", bare);
  trace.block("Its answer", baseline.text);
  demo.recipients.push(await externalRecipient("vision model, no context", bare, tokenizer, false));

  //#region mediaTools
  const { read_media, generate_media } = createMediaTools({
    workspace,
    models: { understanding: models.chat, image: models.image },
    // The image model gets what we are building, the key terms and the brand rules, not the rest.
    views: { generate_image: CONTEXT_VIEW_PRESETS.media },
    maxRetries: 0,
  });
  const read = await read_media.execute(
    { path: SCREENSHOT_PATH, prompt: SCREENSHOT_QUESTION },
    callOptions("read-1"),
  );
  const generated = await generate_media.execute(
    { type: "image", prompt: HERO_IMAGE_REQUEST, size: "1024x1024" },
    callOptions("generate-1"),
  );
  //#endregion
  if (!read.success) throw new Error(`read_media failed: ${read.error}`);
  if (!generated.success) throw new Error(`generate_media failed: ${generated.error}`);
  const exchanges = models.exchanges.slice(-2);
  const readPrompt = externalPrompt(exchanges[0]);
  const imagePrompt = externalPrompt(exchanges[1]);
  progress.detail(`read_media sent the vision model this exact prompt (with the image):`);
  progress.detail(`  ${readPrompt.replaceAll("\n", "\n  ")}`);
  progress.detail(`with task context (read_media), it says: ${read.text}`);
  trace.text(
    `Then \`read_media\` on \`${SCREENSHOT_PATH}\`: the tool loaded CONTEXT.md and sent this exact prompt with the image (${exchanges[0]?.path}):`,
  );
  trace.block("Prompt received by the vision model (read_media)", readPrompt);
  trace.block("Its answer", read.text);
  demo.recipients.push(
    await externalRecipient("read_media → vision model", readPrompt, tokenizer, context.truncated),
  );

  const image = await workspace.readFile(generated.path);
  const background = backgroundOf(image.bytes);
  const imageView = generated.contextView;
  progress.detail(
    `generate_media sent the image model the ${imageView?.name ?? "whole"} view of the [Task Context] (${imageView?.sections.join(", ") ?? "every section"}; sha256 ${((await contextHashOf(imagePrompt)) ?? "none").slice(0, 12)}) and [Request] ${splitTaskContext(imagePrompt).prompt}`,
  );
  progress.detail(
    `generate_media wrote ${generated.path} (${generated.mediaType}${background === undefined ? "" : `, background ${background}`})`,
  );
  trace.text(
    imageView === undefined
      ? `\`generate_media\` (${exchanges[1]?.path}) received:`
      : `\`generate_media\` (${exchanges[1]?.path}) received the \`${imageView.name}\` view of CONTEXT.md — ${imageView.sections.map((section) => `"${section}"`).join(", ")} — not the whole file (sha256 \`${imageView.fileSha256}\`):`,
  );
  trace.block("Prompt received by the image model (generate_media)", imagePrompt);
  trace.text(
    `It wrote \`${generated.path}\` (${generated.mediaType}, ${image.bytes.length} bytes${background === undefined ? "" : `; background ${background}, the colour the task context names first`}).`,
  );
  demo.recipients.push(
    await externalRecipient(
      "generate_media → image model",
      imagePrompt,
      tokenizer,
      context.truncated,
      imageView === undefined
        ? undefined
        : {
            name: imageView.name,
            wholePrompt: injectTaskContext(splitTaskContext(imagePrompt).prompt, context.content),
          },
    ),
  );

  // The same read with a CONTEXT.md over the limit: cut to 10 000 characters, with a warning.
  const truncated = await readScreenshotWith(demo, oversizedContextMd(), screenshot, "read-2");
  progress.detail(`with an oversized CONTEXT.md: warning: ${truncated.warning}`);
  trace.text(
    `Last, \`read_media\` with a CONTEXT.md of ${oversizedContextMd().length} characters. The tool result carries the warning:`,
  );
  trace.block("Warning", truncated.warning ?? "(none)");
  trace.block("Prompt received by the vision model (truncated context)", truncated.prompt);
  demo.recipients.push(
    await externalRecipient(
      "read_media → vision model, oversized CONTEXT.md",
      truncated.prompt,
      tokenizer,
      true,
    ),
  );

  // The same read with an API key pasted into CONTEXT.md: redacted before it leaves, with a warning.
  const redacted = await readScreenshotWith(demo, contextMdWithKey(), screenshot, "read-3");
  const keyLine = redacted.prompt.split("\n").find((line) => line.includes("API key")) ?? "";
  progress.detail(`with an API key pasted into CONTEXT.md: warning: ${redacted.warning}`);
  progress.detail(`  the vision model received: ${keyLine}`);
  trace.text(
    "And `read_media` with an API key pasted into CONTEXT.md: the key is redacted before the prompt leaves, and the result says so:",
  );
  trace.block("Warning", redacted.warning ?? "(none)");
  trace.block("Prompt received by the vision model (key redacted)", redacted.prompt);
  demo.recipients.push({
    ...(await externalRecipient(
      "read_media → vision model, a key in CONTEXT.md",
      redacted.prompt,
      tokenizer,
      false,
    )),
    secretsRedacted: redacted.prompt.includes(PASTED_KEY) ? 0 : 1,
  });
  progress.done(
    2,
    `${models.exchanges.length} model calls over HTTP (${models.settings.kind === "stand-in" ? "the stand-in" : "models from the environment"})`,
  );
  return { withoutContext: baseline.text, withContext: read.text };
}
