// What a delivery span costs: traceDelivery around a delivery against the bare delivery, with no
// OpenTelemetry SDK registered (the API's no-op) and with one (the real SDK, an in-memory
// exporter), each beside a whole media-tool call. Against the built packages (dist/), in
// alternating rounds of the same run. Run: `pnpm run bench` here after `pnpm run build`.
import { compareAlternating, microseconds } from "@task-context/bench-kit";
import { loadTaskContext, memoryWorkspace } from "@task-context/core";
import { traceDelivery } from "@task-context/core/tracing";
import { createMediaTools } from "@task-context/media-tools";
import { recordSpans } from "@task-context/trace-kit";
import { imageModel, PNG } from "../src/test-support/fixtures.ts";

const context = "We are building Lumen, a note-taking app for researchers. ".repeat(70);
const workspace = memoryWorkspace({ "CONTEXT.md": context, "screens/home.png": PNG });
const loaded = await loadTaskContext(workspace);
const options = {
  tracer: "bench",
  name: "execute_tool bench",
  recipient: { kind: "media-tool", id: "bench" },
} as const;
const deliver = async () => loaded.content.length;
const traced = () =>
  traceDelivery(options, (span) => {
    span.recordContext(loaded);
    return deliver();
  });
const { generate_image } = createMediaTools({ workspace, models: { image: imageModel() } });
const toolCall = () => generate_image.execute({ prompt: "A hero image." });

const nanoseconds = (value: number) => `${Math.round(value)} ns`;
const rows: string[] = [];

// 1. No SDK: the API's no-op tracer.
const off = await compareAlternating(
  { bare: deliver, traced, tool: toolCall },
  { iterations: 2_000, rounds: 15 },
);
rows.push(
  `| a delivery in \`traceDelivery\`, no SDK registered | ${nanoseconds(off.traced)} | the bare delivery: ${nanoseconds(off.bare)} | ${nanoseconds(off.traced - off.bare)} | ${((off.traced - off.bare) / off.tool).toFixed(4)}× of a \`generate_image\` call (${microseconds(off.tool)}) |`,
);

// 2. The real SDK, recording every span to memory.
const recorder = recordSpans();
const on = await compareAlternating({ bare: deliver, traced }, { iterations: 2_000, rounds: 15 });
await recorder.stop();
rows.push(
  `| a delivery in \`traceDelivery\`, SDK recording | ${nanoseconds(on.traced)} | the bare delivery: ${nanoseconds(on.bare)} | ${nanoseconds(on.traced - on.bare)} | ${((on.traced - on.bare) / off.tool).toFixed(4)}× of a \`generate_image\` call |`,
);

console.log(
  `Node ${process.version}; CONTEXT.md of ${context.length} characters; medians of 15 alternating rounds.`,
);
console.log("");
console.log("| benchmark | result | baseline (same run) | cost of the span | relative |");
console.log("| --- | --- | --- | --- | --- |");
for (const line of rows) console.log(line);
