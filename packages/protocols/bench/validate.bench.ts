// validate() — the zod schemas themselves, from the built package — against ajv validating the
// published JSON Schema of the same name (compiled once, as a server would), measured in the same
// run; and against the zod schema alone on hostile values, where validate()'s own work (issues,
// the search for `__proto__` keys) must add nothing that grows with the value.
// Run from packages/protocols after a build: node --expose-gc bench/validate.bench.ts
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { compareAlternating, median, microseconds } from "@task-context/bench-kit";
import { validate, workItemSchema } from "@task-context/protocols";
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

// Hostile values, refused at the root: what a service pays for JSON it did not write.
let sharedItems: unknown = [1];
for (let level = 0; level < 7; level++) sharedItems = new Array(9).fill(sharedItems);
const hostile = [
  ["1 000 000-item array as a work item", new Array(1_000_000).fill({ a: 1 })],
  ["arrays 7 levels deep, 9 items sharing one array each", sharedItems],
  [
    "300 KB of JSON: 100 000 empty arrays",
    JSON.parse(`[${new Array(100_000).fill("[]").join(",")}]`),
  ],
] as const;
const zodRows: string[] = [];
for (const [name, value] of hostile) {
  if (validate("work-item.v1", value).valid || workItemSchema.safeParse(value).success)
    throw new Error(`not refused: ${name}`);
  const times = await compareAlternating(
    {
      candidate: () => validate("work-item.v1", value),
      baseline: () => workItemSchema.safeParse(value),
    },
    { iterations: 2_000 },
  );
  zodRows.push(
    `| ${name} | ${microseconds(times.candidate)} | ${microseconds(times.baseline)} | ${(times.candidate / times.baseline).toFixed(2)}× |`,
  );
}

console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}; Node ${process.versions.node}\n`,
);
console.log("| benchmark | validate() (zod) | ajv, compiled once (same run) | ratio |");
console.log("| --- | ---: | ---: | ---: |");
for (const row of rows) console.log(row);
console.log(
  "\n| hostile value (work-item.v1) | validate() | workItemSchema.safeParse (same run) | ratio |",
);
console.log("| --- | ---: | ---: | ---: |");
for (const row of zodRows) console.log(row);
