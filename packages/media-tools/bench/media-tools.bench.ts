// Overhead of the media tools over a bare AI SDK call with the same test model, measured in the
// same run against the built package (dist/). Run: `pnpm run bench` here after `pnpm run build`
// (or `node_modules/.bin/pnpm run bench` at the root, which builds first). Prints a markdown table.
import { compareAlternating, median, microseconds, milliseconds } from "@task-context/bench-kit";
import {
  injectTaskContext,
  loadTaskContext,
  memoryWorkspace,
  type Workspace,
} from "@task-context/core";
import { createMediaTools, taskContextMiddleware } from "@task-context/media-tools";
import { generateImage, generateText, wrapLanguageModel } from "ai";
import { imageModel, languageModel, PNG } from "../src/test-support/fixtures.ts";

const paragraph =
  "We are building Lumen, a note-taking app for researchers. LUMEN on screenshots is the wordmark, never a hospital. Deep teal, warm white, Inter. ";
/** A realistic CONTEXT.md: 4 000 characters. */
const context = paragraph.repeat(Math.ceil(4_000 / paragraph.length)).slice(0, 4_000);
const prompt = "What does the header of this screenshot say?";
const files = memoryWorkspace({ "CONTEXT.md": context, "screens/home.png": PNG });
// Generated files are dropped: storing them is the workspace's cost, not the tools'.
const workspace: Workspace = {
  description: "bench workspace",
  readFile: (path, options) => files.readFile(path, options),
  writeFile: async () => {},
};
const understanding = languageModel();
const image = imageModel();
const tools = createMediaTools({ workspace, models: { understanding, image } });
const options = { toolCallId: "bench", messages: [], context: {} };

/**
 * Candidate, baseline and the context load alone, in alternating rounds (so drift and garbage
 * collection hit all three alike); returns the median of each.
 */
const compare = (candidate: () => unknown, baseline: () => unknown, iterations: number) =>
  compareAlternating(
    { baseline, candidate, load: () => loadTaskContext(workspace) },
    { iterations, rounds: 15 },
  );

const µs = microseconds;
const rows: string[] = [];

function row(
  name: string,
  result: { candidate: number; baseline: number; load: number },
  baseline: string,
) {
  const ratio = result.candidate / result.baseline;
  const withoutLoad = (result.candidate - result.load) / result.baseline;
  rows.push(
    `| ${name} | ${µs(result.candidate)} | ${baseline}: ${µs(result.baseline)} | ${µs(result.load)} | ${ratio.toFixed(2)}× | ${withoutLoad.toFixed(2)}× | ≤ 1.1× |`,
  );
}

// 1. understand_image (read + detect + load + inject + generateText) against generateText with
// the same image part and a prompt injected once, outside the measurement.
const injected = injectTaskContext(prompt, context);
const bareUnderstand = () =>
  generateText({
    model: understanding,
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: injected },
          { type: "file", data: PNG, mediaType: "image/png", filename: "home.png" },
        ],
      },
    ],
  });
const understand = await compare(
  () => tools.understand_image.execute({ path: "screens/home.png", prompt }, options),
  bareUnderstand,
  500,
);
row("understand_image (memory workspace)", understand, "bare `generateText` with the file part");

// 2. generate_image (load + inject + generateImage + atomic write) against generateImage.
const generate = await compare(
  () => tools.generate_image.execute({ prompt: "A hero image." }, options),
  () => generateImage({ model: image, prompt: injectTaskContext("A hero image.", context) }),
  500,
);
row("generate_image (memory workspace)", generate, "bare `generateImage`");

// 3. The middleware: generateText through wrapLanguageModel against the bare model.
const wrapped = wrapLanguageModel({
  model: understanding,
  middleware: taskContextMiddleware({ workspace }),
});
const middleware = await compare(
  () => generateText({ model: wrapped, prompt }),
  () => generateText({ model: understanding, prompt: injected }),
  500,
);
row("taskContextMiddleware + generateText", middleware, "bare `generateText`");

// 4. How soon a call past its deadline returns TIMEOUT: a 30 ms limit against an image model that
// answers after 150 ms (the tests check that it returns TIMEOUT and writes nothing; this measures
// how long the caller waits for that).
const slowImage = imageModel();
const answer = slowImage.doGenerate;
slowImage.doGenerate = async (options) => {
  await new Promise((resolve) => setTimeout(resolve, 150));
  return answer(options);
};
const timed = createMediaTools({ workspace, models: { image: slowImage }, timeoutMs: 30 });
const settled: number[] = [];
for (let run = 0; run < 21; run++) {
  const started = process.hrtime.bigint();
  const result = await timed.generate_image.execute({ prompt: "A hero image." });
  settled.push(Number(process.hrtime.bigint() - started));
  if (result.success || result.code !== "TIMEOUT") throw new Error("expected a TIMEOUT result");
}

console.log(
  `Node ${process.version}; CONTEXT.md of ${context.length} characters; test models from ai/test; medians of 15 alternating rounds.`,
);
console.log("");
console.log(
  "| benchmark | result | baseline (same run) | context load (same run) | ratio | ratio less the context load | target |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const line of rows) console.log(line);
console.log("");
console.log(
  `generate_image with timeoutMs: 30 against a model that answers after 150 ms returns TIMEOUT after ${milliseconds(median(settled))} (median of ${settled.length}; the deadline is 30 ms, the answer comes at 150 ms).`,
);
