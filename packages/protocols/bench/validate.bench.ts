// validate() — the zod schemas themselves, from the built package — against ajv validating the
// published JSON Schema of the same name (compiled once, as a server would), measured in the same
// run. Run from packages/protocols after a build: node --expose-gc bench/validate.bench.ts
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { compareAlternating, median, microseconds } from "@task-context/bench-kit";
import { validate } from "@task-context/protocols";
import { Ajv2020 } from "ajv/dist/2020.js";

const json = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
const schema = (name: string) => json(`../schemas/${name}.schema.json`);
const review = json("../fixtures/work-item.v1/valid/review.json");
const block = json("../fixtures/context-block.v1/valid/spec-builder-to-developer.json");
const { review_context: _, ...reviewWithoutContext } = review;

const newAjv = () =>
  new Ajv2020({
    strict: true,
    allowUnionTypes: true,
    strictTuples: false,
    allErrors: true,
    formats: { "date-time": true },
  });
const ajv = newAjv();
const ajvWorkItem = ajv.compile(schema("work-item.v1"));
const ajvBlock = ajv.compile(schema("context-block.v1"));

const cases = [
  ["valid work item (review)", "work-item.v1", review, ajvWorkItem],
  [
    "invalid work item (review without review_context) → issues",
    "work-item.v1",
    reviewWithoutContext,
    ajvWorkItem,
  ],
  ["valid context block", "context-block.v1", block, ajvBlock],
] as const;

const rows: string[] = [];
for (const [name, schemaName, value, compiled] of cases) {
  if (validate(schemaName, value).valid !== compiled(value))
    throw new Error(`verdicts differ: ${name}`);
  const times = await compareAlternating(
    { candidate: () => validate(schemaName, value), baseline: () => compiled(value) },
    { iterations: 5_000 },
  );
  rows.push(
    `| ${name} | ${microseconds(times.candidate)} | ${microseconds(times.baseline)} | ${(times.candidate / times.baseline).toFixed(2)}× |`,
  );
}

// Cold start: what a fresh Worker isolate pays before its first answer. validate() needs no
// compilation; ajv compiles the schema with `new Function` (which Workers forbid).
const coldAjv: number[] = [];
for (let round = 0; round < 15; round++) {
  const start = process.hrtime.bigint();
  newAjv().compile(schema("work-item.v1"))(review);
  coldAjv.push(Number(process.hrtime.bigint() - start));
}
rows.push(
  `| first answer: ajv \`new Ajv2020\` + compile + validate (work item) | | ${microseconds(median(coldAjv))} | |`,
);

console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}; Node ${process.versions.node}\n`,
);
console.log("| benchmark | validate() (zod) | ajv, compiled once (same run) | ratio |");
console.log("| --- | ---: | ---: | ---: |");
for (const row of rows) console.log(row);
