// Benchmarks of @task-context/core's built output against baselines measured in the same run.
// Run: node_modules/.bin/pnpm run bench (from the repository root), or `pnpm run bench` here.
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  compareAlternating,
  median,
  medianNanoseconds,
  microseconds,
  milliseconds,
} from "@task-context/bench-kit";
import { injectTaskContext, loadTaskContext, memoryWorkspace } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { o200kTokenizer } from "@task-context/core/o200k";
import { countTokens, encode } from "gpt-tokenizer/encoding/o200k_base";

const paragraph =
  "We are building Lumen, a note-taking app for researchers. LUMEN on screenshots is the wordmark, never a hospital. Deep teal, warm white, Inter. ";
const textOf = (length: number) =>
  paragraph.repeat(Math.ceil(length / paragraph.length)).slice(0, length);
const directory = await mkdtemp(join(tmpdir(), "task-context-bench-"));
const rows: string[] = [];

try {
  // 1. load + inject of a 10 KB CONTEXT.md against fs.readFile + a template string.
  const small = join(directory, "small");
  await mkdir(small);
  await writeFile(join(small, "CONTEXT.md"), textOf(10_000));
  const workspace = nodeWorkspace(small);
  const prompt = "What does the header of this screenshot say?";
  const inject = await compareAlternating(
    {
      baseline: async () =>
        `[Task Context]\n${await readFile(join(small, "CONTEXT.md"), "utf8")}\n\n[Request]\n${prompt}`,
      candidate: async () => injectTaskContext(prompt, await loadTaskContext(workspace)),
    },
    { iterations: 2_000 },
  );
  rows.push(
    `| load + inject, 10 KB CONTEXT.md | ${microseconds(inject.candidate)} | fs.readFile + template: ${microseconds(inject.baseline)} | ${(inject.candidate / inject.baseline).toFixed(2)}× | ≤ 1.5× |`,
  );

  // 2. load of 100 KB, 10 MB and 1 GB files: same time, flat memory.
  const sizes = [
    ["100 KB", 100_000],
    ["10 MB", 10_000_000],
    ["1 GB", 1_000_000_000],
  ] as const;
  const workspaces: Array<[string, ReturnType<typeof nodeWorkspace>]> = [];
  for (const [label, size] of sizes) {
    const root = join(directory, label.replace(" ", ""));
    await mkdir(root);
    const file = join(root, "CONTEXT.md");
    await writeFile(file, textOf(65_536));
    const handle = await open(file, "r+");
    await handle.truncate(size); // sparse beyond the first 64 KB
    await handle.close();
    workspaces.push([label, nodeWorkspace(root)]);
  }
  for (const [, sized] of workspaces)
    for (let warm = 0; warm < 300; warm++) await loadTaskContext(sized);
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  // Interleave the sizes round by round so that machine noise hits them alike.
  const samples = workspaces.map((): number[] => []);
  for (let round = 0; round < 9; round++) {
    for (const [index, [, sized]] of workspaces.entries()) {
      samples[index]?.push(
        await medianNanoseconds(() => loadTaskContext(sized), { iterations: 300, rounds: 3 }),
      );
    }
  }
  globalThis.gc?.();
  const largestGrowth = process.memoryUsage().rss - before;
  const times = samples.map(median);
  for (const [index, [label]] of workspaces.entries()) {
    rows.push(`| load, ${label} CONTEXT.md | ${microseconds(times[index] as number)} | | | |`);
  }
  const spread = Math.max(...times) / Math.min(...times);
  rows.push(
    `| load time, largest ÷ smallest of 100 KB / 10 MB / 1 GB | ${spread.toFixed(2)}× | | | ≤ 1.2× |`,
  );
  rows.push(
    `| memory growth across those loads (RSS) | ${(largestGrowth / 1_048_576).toFixed(2)} MB | | | < 5 MB |`,
  );

  // 3. truncating 1 MB of text to 2 000 tokens against one encode of the kept prefix.
  const megabyte = textOf(1_000_000);
  const kept = o200kTokenizer.truncate(megabyte, 2_000);
  const truncate = await compareAlternating(
    { baseline: () => encode(kept), candidate: () => o200kTokenizer.truncate(megabyte, 2_000) },
    { iterations: 200 },
  );
  rows.push(
    `| o200k truncate 1 MB → 2 000 tokens | ${milliseconds(truncate.candidate)} | one encode of the kept prefix: ${milliseconds(truncate.baseline)} | ${(truncate.candidate / truncate.baseline).toFixed(2)}× | ≤ 2× |`,
  );

  // 4. The worst case of an exact token budget: CONTEXT.md is one 10 000-letter word, which BPE
  //    encodes in time quadratic in its length. A first load of each new text against one exact
  //    count of a text like it (the floor of any exact cut); then repeated loads of an unchanged
  //    file, which the cache answers, against reading the file.
  const budget = { maxTokens: 1_200, tokenizer: o200kTokenizer };
  const word = (index: number) =>
    "abcdefghijklmnopqrstuvwxyz"[index % 26]?.repeat(10_000 - index) ?? "";
  const firstLoads: number[] = [];
  const counts: number[] = [];
  for (let index = 0; index < 20; index++) {
    const text = word(index);
    const fresh = memoryWorkspace({ "CONTEXT.md": text });
    let start = process.hrtime.bigint();
    countTokens(word(index + 100));
    counts.push(Number(process.hrtime.bigint() - start));
    start = process.hrtime.bigint();
    await loadTaskContext(fresh, budget);
    firstLoads.push(Number(process.hrtime.bigint() - start));
  }
  rows.push(
    `| o200k budget, CONTEXT.md one 10 000-letter word, first load | ${milliseconds(median(firstLoads))} | one exact count of such a word: ${milliseconds(median(counts))} | ${(median(firstLoads) / median(counts)).toFixed(2)}× | ≤ 2× |`,
  );
  const pathological = join(directory, "pathological");
  await mkdir(pathological);
  await writeFile(join(pathological, "CONTEXT.md"), word(0));
  const unchanged = nodeWorkspace(pathological);
  const cached = await compareAlternating(
    {
      baseline: () => readFile(join(pathological, "CONTEXT.md"), "utf8"),
      candidate: () => loadTaskContext(unchanged, budget),
    },
    { iterations: 500 },
  );
  rows.push(
    `| o200k budget, the same file loaded again (every tool call) | ${microseconds(cached.candidate)} | fs.readFile: ${microseconds(cached.baseline)} | ${(cached.candidate / cached.baseline).toFixed(2)}× | ≤ 1.5× |`,
  );
} finally {
  await rm(directory, { recursive: true, force: true });
}

console.log(`@task-context/core on Node ${process.version}, ${process.platform}/${process.arch}\n`);
console.log("| benchmark | result | baseline (same run) | ratio | target |");
console.log("| --- | --- | --- | --- | --- |");
for (const row of rows) console.log(row);
