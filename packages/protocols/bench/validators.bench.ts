// Operations per second of the standalone (build-time) validators against ajv compiling the same
// published schemas at run time, measured in the same run, with their ratio.
// Run from packages/protocols: node bench/validators.bench.ts
import { Ajv2020 } from "ajv/dist/2020.js";
import contextBlockSchema from "../fixtures/context-block.v1/valid/spec-builder-to-developer.json" with {
  type: "json",
};
import invalidWorkItem from "../fixtures/work-item.v1/invalid/review-without-review-context.json" with {
  type: "json",
};
import workItem from "../fixtures/work-item.v1/valid/review.json" with { type: "json" };
import publishedContextBlock from "../schemas/context-block.v1.schema.json" with { type: "json" };
import publishedWorkItem from "../schemas/work-item.v1.schema.json" with { type: "json" };
import { ajvOptions } from "../src/validate/ajv-options.ts";
import { getValidator as runtimeValidator } from "../src/validate/runtime-validators.ts";
import { validators } from "../src/validate/standalone-validators.generated.js";
import { getValidator as standaloneValidator } from "../src/validate/standalone-validators.ts";

const contextBlock = contextBlockSchema;

/** Median nanoseconds per call over `rounds` rounds of `iterations` calls. */
function nanosecondsPerCall(fn: () => unknown, iterations: number, rounds = 3): number {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint();
    for (let index = 0; index < iterations; index++) fn();
    samples.push(Number(process.hrtime.bigint() - start) / iterations);
  }
  return median(samples);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Candidate and baseline in alternating rounds, so that machine noise hits both alike. */
function compare(
  name: string,
  candidate: () => unknown,
  baseline: () => unknown,
  iterations: number,
) {
  for (let warm = 0; warm < iterations; warm++) {
    candidate();
    baseline();
  }
  const candidateTimes: number[] = [];
  const baselineTimes: number[] = [];
  for (let round = 0; round < 9; round++) {
    baselineTimes.push(nanosecondsPerCall(baseline, iterations));
    candidateTimes.push(nanosecondsPerCall(candidate, iterations));
  }
  const candidateOps = 1e9 / median(candidateTimes);
  const baselineOps = 1e9 / median(baselineTimes);
  return { name, candidateOps, baselineOps, ratio: candidateOps / baselineOps };
}

function expectValid(check: (value: unknown) => boolean, value: unknown, label: string) {
  if (!check(value)) throw new Error(`${label}: the benchmark input must be valid`);
}

const compiled = new Ajv2020(ajvOptions);
const runtimeWorkItem = compiled.compile(publishedWorkItem);
const runtimeContextBlock = compiled.compile(publishedContextBlock);
const standaloneWorkItem = validators["work-item.v1"];
const standaloneContextBlock = validators["context-block.v1"];
expectValid(standaloneWorkItem, workItem, "work item");
expectValid(runtimeWorkItem, workItem, "work item");
expectValid(standaloneContextBlock, contextBlock, "context block");
expectValid(runtimeContextBlock, contextBlock, "context block");

const results = [
  compare(
    "valid work item (review), raw validate function",
    () => standaloneWorkItem(workItem),
    () => runtimeWorkItem(workItem),
    20_000,
  ),
  compare(
    "valid context block, raw validate function",
    () => standaloneContextBlock(contextBlock),
    () => runtimeContextBlock(contextBlock),
    50_000,
  ),
  compare(
    "valid work item, getValidator() → { valid, issues }",
    () => standaloneValidator("work-item.v1")(workItem),
    () => runtimeValidator("work-item.v1")(workItem),
    20_000,
  ),
  compare(
    "invalid work item (no review_context), getValidator() → issues",
    () => standaloneValidator("work-item.v1")(invalidWorkItem),
    () => runtimeValidator("work-item.v1")(invalidWorkItem),
    10_000,
  ),
];

// Cold start: what the first validation of a work item costs. The candidate loads a fresh copy
// of the standalone module (all 11 validators: parse and evaluate) and validates; the baseline
// creates an Ajv2020 and compiles the work-item schema (the meta-schema included), then validates.
const generatedModule = new URL(
  "../src/validate/standalone-validators.generated.js",
  import.meta.url,
);
let fresh = 0;
async function nanosecondsPerColdCall(fn: () => Promise<unknown> | unknown, iterations: number) {
  const start = process.hrtime.bigint();
  for (let index = 0; index < iterations; index++) await fn();
  return Number(process.hrtime.bigint() - start) / iterations;
}
const coldCandidate = async () => {
  const module = (await import(
    `${generatedModule.href}?fresh=${fresh++}`
  )) as typeof import("../src/validate/standalone-validators.generated.js");
  return module.validators["work-item.v1"](workItem);
};
const coldBaseline = () => new Ajv2020(ajvOptions).compile(publishedWorkItem)(workItem);
const coldCandidateTimes: number[] = [];
const coldBaselineTimes: number[] = [];
for (let round = 0; round < 9; round++) {
  coldBaselineTimes.push(await nanosecondsPerColdCall(coldBaseline, 10));
  coldCandidateTimes.push(await nanosecondsPerColdCall(coldCandidate, 10));
}
const coldCandidateOps = 1e9 / median(coldCandidateTimes);
const coldBaselineOps = 1e9 / median(coldBaselineTimes);
results.push({
  name: "cold start: load the standalone module vs ajv compile, then validate a work item",
  candidateOps: coldCandidateOps,
  baselineOps: coldBaselineOps,
  ratio: coldCandidateOps / coldBaselineOps,
});

const format = (value: number) =>
  value >= 100 ? Math.round(value).toLocaleString("en-US") : value.toFixed(1);
console.log(
  `Node ${process.version}, ${process.platform} ${process.arch}. Candidate: ajv standalone code generated at build time. Baseline: ajv ${(await import("ajv/package.json", { with: { type: "json" } })).default.version} Ajv2020 compiling the committed schema at run time, same options.\n`,
);
console.log("| benchmark | ops/s | baseline ops/s | ratio |");
console.log("| --- | ---: | ---: | ---: |");
for (const result of results)
  console.log(
    `| ${result.name} | ${format(result.candidateOps)} | ${format(result.baselineOps)} | ${result.ratio.toFixed(2)}× |`,
  );
