// Benchmarks of Context Protocol v1 parsing, from the built package, against yaml's own parser
// measured in the same run: a realistic block, and the hostile inputs the tests refuse (their
// behaviour is asserted in src/context-block/*.test.ts; their time is measured here).
// Run from packages/protocols after a build: node --expose-gc bench/context-block.bench.ts
import { cpus } from "node:os";
import { compareAlternating, medianNanoseconds, microseconds } from "@task-context/bench-kit";
import { approximateTokenizer } from "@task-context/core";
import {
  type ContextBlock,
  parseContextBlock,
  renderContextBlock,
} from "@task-context/protocols/context-block";
import { parse, parseDocument } from "yaml";

// A realistic block of about 2 KB: the protocol's fields, thirteen commands, a summary near the
// 200-token maximum (the protocol's target is 50-100).
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

const request = `Implement US-014: add "Export as Markdown" to the note menu.`;
const promptOf = (value: ContextBlock) => `${renderContextBlock(value)}\n\n${request}`;
const yamlOf = (value: ContextBlock) =>
  renderContextBlock(value).slice("<context>\n".length, -"</context>".length);
const longBlock: ContextBlock = {
  ...block,
  conventions: { ...block.conventions, summary: block.conventions.summary.repeat(2) },
};
const prompt = promptOf(block);
const longPrompt = promptOf(longBlock);
const bytes = (text: string) => new TextEncoder().encode(text).length;

// Both must agree before anything is measured.
for (const [text, value, warned] of [
  [prompt, block, false],
  [longPrompt, longBlock, true],
] as const) {
  const check = parseContextBlock(text);
  if (
    check.status !== "found" ||
    JSON.stringify(check.block) !== JSON.stringify(parse(yamlOf(value)))
  ) {
    throw new Error(`the benchmark block does not parse back: ${JSON.stringify(check)}`);
  }
  if ("warning" in check !== warned)
    throw new Error(`unexpected warning: ${JSON.stringify(check)}`);
}

const rows: string[] = [];
const ratio = (candidate: number, baseline: number) => `${(candidate / baseline).toFixed(2)}×`;

for (const [name, text, value, target] of [
  [
    `parseContextBlock, ${bytes(prompt)}-byte prompt (find, untrusted YAML, schema, summary counted)`,
    prompt,
    block,
    "≤ 1.3×",
  ],
  [
    `parseContextBlock, ${bytes(longPrompt)}-byte prompt whose summary is over 200 tokens (warned)`,
    longPrompt,
    longBlock,
    "",
  ],
] as const) {
  const yaml = yamlOf(value);
  const times = await compareAlternating(
    { candidate: () => parseContextBlock(text), baseline: () => parse(yaml) },
    { iterations: 500 },
  );
  rows.push(
    `| ${name} | ${microseconds(times.candidate)} | \`yaml.parse\` of the same YAML: ${microseconds(times.baseline)} | ${ratio(times.candidate, times.baseline)} | ${target} |`,
  );
}
const summaryCount = await medianNanoseconds(
  () => approximateTokenizer.count(longBlock.conventions.summary),
  { iterations: 2_000 },
);
rows.push(
  `| of which: approximateTokenizer.count of the ${longBlock.conventions.summary.length}-character summary | ${microseconds(summaryCount)} | | | |`,
);

// Hostile inputs: each is refused; the time is what refusing costs.
const bare = (yaml: string) => `<context>\n${yaml}\n</context>\n\nGo.`;
const keys: string[] = [];
for (let index = 0; keys.join("").length < 64_000; index++)
  keys.push(`${index.toString(36)}: ${index}\n`);
const bigMapping = `${keys.join("")}0: again\n`;
const aliasBomb = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
for (let level = 1; level < 9; level++) {
  const previous = String.fromCharCode(96 + level);
  aliasBomb.push(
    `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(9).fill(`*${previous}`).join(", ")}]`,
  );
}
const hostile: Array<[string, string]> = [
  ["10 000-deep flow sequences", bare(`a: ${"[".repeat(10_000)}${"]".repeat(10_000)}`)],
  ["32 000-deep flow sequences (64 KiB)", bare(`a: ${"[".repeat(32_000)}${"]".repeat(32_000)}`)],
  ["10 000-deep compact block sequences", bare(`${"- ".repeat(10_000)}x\n- y`)],
  ["10 000 nested explicit keys", bare(`${"? ".repeat(10_000)}x`)],
  [
    "300-deep block mappings by indentation",
    bare(Array.from({ length: 300 }, (_, depth) => `${" ".repeat(depth)}a:`).join("\n")),
  ],
  ["alias bomb (9 levels of 9)", bare(aliasBomb.join("\n"))],
  [
    `a ${Math.round(bigMapping.length / 1024)} KiB mapping of ${keys.length} keys, duplicate at the end`,
    bare(bigMapping),
  ],
  ["a 50 MB scalar", `<context>\nsummary: ${"x".repeat(50 * 1024 * 1024)}\n</context>\n`],
  ["a 10 MB prompt with no closing line", `<context>\n${"a: b\n".repeat(2_000_000)}`],
];
const normalYaml = yamlOf(block);
const normal = await medianNanoseconds(() => parse(normalYaml), { iterations: 200 });
for (const [name, text] of hostile) {
  const result = parseContextBlock(text);
  if (result.status !== "invalid") throw new Error(`${name} was not refused: ${result.status}`);
  const time = await medianNanoseconds(() => parseContextBlock(text), { iterations: 5, rounds: 7 });
  rows.push(
    `| refuse ${name} | ${microseconds(time)} | \`yaml.parse\` of the 2 KB block: ${microseconds(normal)} | ${ratio(time, normal)} | |`,
  );
}

// Why duplicate keys are found while converting rather than by yaml's `uniqueKeys`.
const unique = bigMapping.slice(0, bigMapping.lastIndexOf("0: again"));
const own = await medianNanoseconds(() => parseContextBlock(bare(unique)), {
  iterations: 3,
  rounds: 5,
});
const yamlUnique = await medianNanoseconds(() => parseDocument(unique, { uniqueKeys: true }), {
  iterations: 1,
  rounds: 5,
});
const yamlPlain = await medianNanoseconds(() => parseDocument(unique, { uniqueKeys: false }), {
  iterations: 1,
  rounds: 5,
});
rows.push(
  `| parseContextBlock, the same ${keys.length - 1} unique keys (hash lookup for duplicates) | ${microseconds(own)} | \`parseDocument\` without \`uniqueKeys\`: ${microseconds(yamlPlain)} | ${ratio(own, yamlPlain)} | |`,
  `| \`parseDocument\` with yaml's \`uniqueKeys\` (pairwise comparison) | ${microseconds(yamlUnique)} | \`parseDocument\` without \`uniqueKeys\`: ${microseconds(yamlPlain)} | ${ratio(yamlUnique, yamlPlain)} | |`,
);

const model = cpus()[0]?.model ?? "unknown CPU";
console.log(`Machine: ${cpus().length} × ${model}; Node ${process.versions.node}\n`);
console.log("| benchmark | result | baseline (same run) | ratio | target |");
console.log("| --- | --- | --- | --- | --- |");
for (const row of rows) console.log(row);
