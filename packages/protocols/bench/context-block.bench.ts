// Benchmark of parseContextBlock (find the block, parse its YAML as untrusted input, validate it
// against the v1 schema, check the summary's token budget) against a bare `yaml.parse` of the same
// YAML text, measured in the same run. Run from packages/protocols:
//   node bench/context-block.bench.ts
import { cpus } from "node:os";
import { approximateTokenizer } from "@task-context/core";
import { parse } from "yaml";
import {
  type ContextBlock,
  parseContextBlock,
  parseUntrustedYaml,
  renderContextBlock,
} from "../src/context-block/index.ts";

// A realistic block of about 2 KB: the spec's fields, thirteen commands, a summary near the 200-token
// maximum (spec 004's target is 50-100).
const block: ContextBlock = {
  version: 1,
  project: {
    path: "/Users/dev/code/lumen-notes",
    stack: "nextjs-prisma",
    commands: {
      dev: "pnpm run dev --turbo",
      test: "pnpm exec vitest run --reporter=dot",
      "test:e2e": "pnpm exec playwright test --project=chromium",
      build: "pnpm run build && pnpm run check:bundle",
      lint: "pnpm exec biome check --write src tests",
      typecheck: "pnpm exec tsc --noEmit -p tsconfig.json",
      "db:migrate": "pnpm exec prisma migrate dev --name",
      storybook: "pnpm exec storybook dev -p 6006",
      "format:check": "pnpm exec biome format src tests --reporter=summary",
      "i18n:extract": "pnpm exec lingui extract --clean --overwrite",
      "db:seed": "pnpm exec tsx prisma/seed.ts --notes=200",
      "bench:export": "node --expose-gc bench/export.bench.ts",
      analyze: "ANALYZE=true pnpm run build",
    },
  },
  conventions: {
    summary: [
      "TypeScript strict mode with noUncheckedIndexedAccess. Next.js App Router; server components by default,",
      "and 'use client' only for interactive leaves. Tailwind CSS with shadcn/ui components from components/ui.",
      "API routes live in app/api/ and validate every input with Zod schemas from lib/schemas; server actions live",
      "in lib/actions/ and return { ok, error } objects instead of throwing. Prisma for database access through",
      "lib/db.ts only; never import the client elsewhere. Errors: typed AppError subclasses with a code, logged",
      "once at the boundary. State: React Query for server state, Zustand for small client stores. Tests: Vitest",
      "beside the code (*.test.ts), Playwright for flows in tests/e2e, MSW for network mocks. Names: full words,",
      "kebab-case files, one component per file. Accessibility: every interactive element has a label.",
      "",
    ].join("\n"),
    fullPath: "/Users/dev/code/lumen-notes/docs/CONVENTIONS.md",
  },
  currentWork: {
    prd: "Markdown export for notes",
    story:
      "US-014 Export the selected notes as one Markdown file per note, zipped, with front matter for tags and dates",
    branch: "feature/markdown-export",
  },
};

const rendered = renderContextBlock(block);
const request = `Implement US-014: add "Export as Markdown" to the note menu.`;
const prompt = `${rendered}\n\n${request}`;
const yamlText = rendered.slice("<context>\n".length, -"</context>".length);

// The same block with a summary over the 200-token maximum: the warning path counts every token.
const longBlock: ContextBlock = {
  ...block,
  conventions: { ...block.conventions, summary: block.conventions.summary.repeat(2) },
};
const longRendered = renderContextBlock(longBlock);
const longPrompt = `${longRendered}\n\n${request}`;
const longYamlText = longRendered.slice("<context>\n".length, -"</context>".length);

// Both must agree before anything is measured.
for (const [text, yaml, warnings] of [
  [prompt, yamlText, 0],
  [longPrompt, longYamlText, 1],
] as const) {
  const check = parseContextBlock(text);
  if (check.status !== "found" || JSON.stringify(check.block) !== JSON.stringify(parse(yaml))) {
    throw new Error(`the benchmark block does not parse back: ${JSON.stringify(check.issues)}`);
  }
  if (check.warnings.length !== warnings) throw new Error(`unexpected warnings: ${check.warnings}`);
}

/** Median nanoseconds per call over alternating rounds of candidate and baseline. */
function compare(
  candidate: () => unknown,
  baseline: () => unknown,
  iterations = 2_000,
  rounds = 21,
) {
  const run = (fn: () => unknown) => {
    const start = process.hrtime.bigint();
    for (let index = 0; index < iterations; index++) fn();
    return Number(process.hrtime.bigint() - start) / iterations;
  };
  run(candidate);
  run(baseline);
  const candidateSamples: number[] = [];
  const baselineSamples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    candidateSamples.push(run(candidate));
    baselineSamples.push(run(baseline));
  }
  const median = (samples: number[]) =>
    samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
  return { candidate: median(candidateSamples), baseline: median(baselineSamples) };
}

const opsPerSecond = (nanoseconds: number) => Math.round(1e9 / nanoseconds).toLocaleString("en-US");
const microseconds = (nanoseconds: number) => `${(nanoseconds / 1000).toFixed(1)} µs`;
const bytes = (text: string) => new TextEncoder().encode(text).length;

const rows = [
  {
    name: `parseContextBlock, ${bytes(rendered)}-byte block (find + safe YAML + schema + summary check)`,
    ...compare(
      () => parseContextBlock(prompt),
      () => parse(yamlText),
    ),
    target: "≤ 1.3×",
  },
  {
    name: "parseUntrustedYaml of the same YAML (size, depth, alias, tag, key checks)",
    ...compare(
      () => parseUntrustedYaml(yamlText),
      () => parse(yamlText),
    ),
    target: "",
  },
  {
    name: `parseContextBlock, ${bytes(longRendered)}-byte block, summary over 200 tokens (counted)`,
    ...compare(
      () => parseContextBlock(longPrompt),
      () => parse(longYamlText),
    ),
    target: "",
  },
];

const model = cpus()[0]?.model ?? "unknown CPU";
console.log(`Machine: ${cpus().length} × ${model}; Node ${process.versions.node}`);
console.log(
  `Summary: ${approximateTokenizer.count(block.conventions.summary)} tokens (approximate); long summary: ${approximateTokenizer.count(longBlock.conventions.summary)}\n`,
);
console.log(
  "| benchmark | result | baseline: `yaml.parse` of the same YAML (same run) | ratio | target |",
);
console.log("| --- | --- | --- | --- | --- |");
for (const { name, candidate, baseline, target } of rows) {
  console.log(
    `| ${name} | ${opsPerSecond(candidate)} ops/s (${microseconds(candidate)}) | ${opsPerSecond(baseline)} ops/s (${microseconds(baseline)}) | ${(candidate / baseline).toFixed(2)}× | ${target} |`,
  );
}
