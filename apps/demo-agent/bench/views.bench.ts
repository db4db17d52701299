// Views: the o200k tokens of CONTEXT.md each recipient receives with a view and without one (the
// whole file), for the demo's CONTEXT.md and for the same file with pages of meeting notes pasted
// in; and what selecting a view costs a load.
// Run: cd apps/demo-agent && node bench/views.bench.ts (after node_modules/.bin/pnpm run build).
import {
  CONTEXT_VIEW_PRESETS,
  type ContextView,
  loadO200kTokenizer,
  loadTaskContext,
  memoryWorkspace,
} from "@task-context/core";
import { LAUNCH_CONTEXT_MD } from "../src/launch-task.ts";
import { oversizedContextMd } from "../src/steps/call-media-tools.ts";

const tokenizer = await loadO200kTokenizer();

/** The recipients of the demo and the view each one would be given. */
const RECIPIENTS: ReadonlyArray<readonly [recipient: string, view: ContextView | undefined]> = [
  ["generate_image, generate_video (image and video models)", CONTEXT_VIEW_PRESETS.media],
  ["read_media, generate_audio (vision and speech models)", CONTEXT_VIEW_PRESETS.brief],
  [
    "a review subagent (no brand rules)",
    { name: "no-brand", exclude: ["Visual and brand guidelines"] },
  ],
  ["an implement subagent (no view)", undefined],
];

const FILES: ReadonlyArray<readonly [name: string, text: string]> = [
  ["the demo's CONTEXT.md", LAUNCH_CONTEXT_MD],
  ["the same, with meeting notes pasted in (cut to 10 000 characters)", oversizedContextMd()],
];

console.log("| CONTEXT.md | recipient | view | tokens with the view | without views | ratio |");
console.log("| --- | --- | --- | ---: | ---: | ---: |");
for (const [name, text] of FILES) {
  const workspace = memoryWorkspace({ "CONTEXT.md": text });
  const whole = tokenizer.count((await loadTaskContext(workspace)).content);
  for (const [recipient, view] of RECIPIENTS) {
    const delivered = tokenizer.count((await loadTaskContext(workspace, { view })).content);
    console.log(
      `| ${name} | ${recipient} | ${view?.name ?? "-"} | ${delivered} | ${whole} | ${(delivered / whole).toFixed(2)}× |`,
    );
  }
}

// What selecting a view costs a load of the same file (every tool call loads it again): alternate
// rounds of loads with and without the media view, the median of each.
const workspace = memoryWorkspace({ "CONTEXT.md": oversizedContextMd() });
const timeLoads = async (view: ContextView | undefined) => {
  const iterations = 2_000;
  const started = performance.now();
  for (let index = 0; index < iterations; index++) await loadTaskContext(workspace, { view });
  return ((performance.now() - started) * 1_000) / iterations;
};
const samples: { whole: number[]; media: number[] } = { whole: [], media: [] };
await timeLoads(undefined);
await timeLoads(CONTEXT_VIEW_PRESETS.media);
for (let round = 0; round < 7; round++) {
  samples.whole.push(await timeLoads(undefined));
  samples.media.push(await timeLoads(CONTEXT_VIEW_PRESETS.media));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[3] as number;
console.log();
console.log(
  `load of the file with meeting notes, same file again: with the media view ${median(samples.media).toFixed(1)} µs, whole file ${median(samples.whole).toFixed(1)} µs (${(median(samples.media) / median(samples.whole)).toFixed(2)}×)`,
);
