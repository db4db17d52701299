// Benchmark of Sage's generate_context against one o200k tokenizer pass over the same input, measured
// in the same run. Run from packages/protocols: node bench/sage.bench.ts
import { cpus } from "node:os";
import { memoryWorkspace } from "@task-context/core";
import { o200kTokenizer } from "@task-context/core/o200k";
import { generateContext, type TaskData } from "../src/sage/index.ts";

const FILES = 20;
const FILE_BYTES = 20_000;

/** Distinct, code-like content of about `bytes` characters for file number `file`. */
function sourceFile(file: number, bytes: number): string {
  const blocks: string[] = [`// Module ${file}: note storage, export and search helpers.`];
  for (let index = 0; blocks.join("\n\n").length < bytes; index++) {
    blocks.push(
      [
        `/** Exports note ${index} of module ${file} as Markdown. Titles become headings. */`,
        `export function exportNote${file}x${index}(note: Note, options: ExportOptions = {}): string {`,
        `  const title = note.title.trim() || "Untitled ${index}";`,
        `  if (note.body.length > ${1000 + index}) return \`# \${title}\\n\\n\${note.body.slice(0, ${1000 + index})}\`;`,
        `  return \`# \${title}\\n\\n\${note.body}\`;`,
        "}",
      ].join("\n"),
    );
  }
  return blocks.join("\n\n").slice(0, bytes);
}

const contents = Array.from({ length: FILES }, (_, file) => sourceFile(file, FILE_BYTES));
const taskData: TaskData = {
  description: "Add Markdown export to the note menu, with one file per note.",
  storyRef: "docs/stories/story-12.md",
  filesToModify: ["src/export.ts"],
  filesToRead: contents.map((_, file) => `src/module-${file}.ts`),
  context: contents.map((content, file) => ({
    type: "file-content",
    path: `src/module-${file}.ts`,
    content,
  })),
};

const generate = () =>
  generateContext(
    { taskId: "story-12.task-3", subagentType: "implement", taskData },
    { workspace: memoryWorkspace(), tokenizer: o200kTokenizer },
  );
const countAll = () => {
  let tokens = 0;
  for (const content of contents) tokens += o200kTokenizer.count(content);
  return tokens;
};

async function medianMilliseconds(fn: () => unknown, rounds: number): Promise<number[]> {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples;
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

for (let warm = 0; warm < 3; warm++) {
  await generate();
  countAll();
}
// Alternate candidate and baseline so that machine noise hits both alike.
const candidate: number[] = [];
const baseline: number[] = [];
for (let round = 0; round < 15; round++) {
  baseline.push(...(await medianMilliseconds(countAll, 1)));
  candidate.push(...(await medianMilliseconds(generate, 1)));
}
const result = await generate();
const inputTokens = countAll();
const inputChars = contents.reduce((sum, content) => sum + content.length, 0);
const generateTime = median(candidate);
const countTime = median(baseline);
const ratio = generateTime / countTime;

console.log(
  `Sage generate_context — ${cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}, o200k_base`,
);
console.log("");
console.log("| measure | result | baseline (same run) | ratio | target |");
console.log("| --- | --- | --- | --- | --- |");
console.log(
  `| generateContext, ${FILES} files × ${FILE_BYTES / 1000} KB (${inputChars} chars, ${inputTokens} tokens), default limits | ${generateTime.toFixed(1)} ms | o200kTokenizer.count over the same files: ${countTime.toFixed(1)} ms | ${ratio.toFixed(2)}× | ≤ 2× |`,
);
console.log(
  `| written document | ${result.tokens} tokens (max_total ${result.limits.max_total}) | | | ≤ max_total |`,
);
console.log(
  `| items summarized / referenced | ${result.warning?.match(/: summarized/g)?.length ?? 0} / ${result.warning?.match(/: replaced with a file reference/g)?.length ?? 0} | | | |`,
);
