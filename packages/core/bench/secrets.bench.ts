// The secret detector: recall and false positives on the corpus, the cost of redaction against
// the load itself (same run), and linear time on 1 MB of hostile input per rule family.
// Run: node_modules/.bin/pnpm --filter @task-context/core run bench (after a build).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  compareAlternating,
  median,
  medianNanoseconds,
  microseconds,
  milliseconds,
} from "@task-context/bench-kit";
import { findSecrets, loadTaskContext } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { LOOK_ALIKES, SECRET_SAMPLES } from "../test-corpus/secrets.ts";

const rows: string[] = [];
const row = (...cells: string[]) => rows.push(`| ${cells.join(" | ")} |`);

// 1. Recall: each fake secret found, as its kind, exactly its span. False positives: look-alikes
//    with any finding.
let recalled = 0;
const missed: string[] = [];
for (const sample of SECRET_SAMPLES) {
  const text = `${sample.before}${sample.secret}${sample.after}`;
  const found = findSecrets(text);
  const hit = found.length === 1 && found[0]?.kind === sample.kind;
  if (hit && text.slice(found[0]?.start, found[0]?.end) === sample.secret) recalled++;
  else missed.push(sample.kind);
}
const falsePositives = LOOK_ALIKES.filter((sample) => findSecrets(sample.text).length > 0);
const kinds = new Set(SECRET_SAMPLES.map((sample) => sample.kind)).size;

// 2. Two 10 000-character CONTEXT.md files without a secret, loaded from disk with the default
//    policy and with "allow": one like an agent writes (headings, prose that speaks of keys and
//    passwords, URLs), one like technical docs (code, config, a table, URLs, hashes, colons
//    everywhere, and an em dash, which makes the text two-byte: the slower case for every scan).
const prose = [
  "## What we are building",
  "Lumen, a note-taking app for researchers: sign-in with email and password, API keys for the",
  "sync service are issued per workspace, and a token refresh runs every 15 minutes.",
  "Docs: https://lumen.example/docs, staging https://staging.lumen.example:8443/app.",
  "## Key terminology",
  "- Vault: where researchers keep sources. - Task: a unit of review work (see task-42).",
  "## Visual and brand guidelines",
  "Deep teal #0f766e, warm white #fdfaf5, Inter. LUMEN in images is the wordmark.",
  "",
].join("\n");
const technical = [
  "## Architecture",
  "The API (https://api.lumen.example/v2, see https://github.com/lumen/lumen/blob/main/docs/api.md#auth)",
  "talks to Postgres at postgres://lumen@db.internal:5432/lumen and Redis at redis://cache:6379/0.",
  "Release 4.2.0 is commit 3f9c2d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e (sha256: 9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b).",
  "```ts",
  "const config: Config = { retries: 3, timeoutMs: 5_000, baseUrl: process.env.API_URL };",
  "export async function refreshToken(session: Session): Promise<Token> {",
  `  const response = await fetch(\`${"$"}{config.baseUrl}/oauth/token\`, { method: "POST" });`,
  `  if (!response.ok) throw new Error(\`refresh failed: ${"$"}{response.status}\`);`,
  "  return (await response.json()) as Token;",
  "}",
  "```",
  "```yaml",
  "services:",
  "  api:",
  "    image: ghcr.io/lumen/api:4.2.0@sha256:0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
  "    environment:",
  `      DATABASE_URL: ${"$"}{DATABASE_URL}`,
  `      API_KEY: ${"$"}{API_KEY}`,
  "      LOG_LEVEL: debug",
  '    ports: ["8080:8080"]',
  "```",
  "| key | type | default | note |",
  "| --- | --- | --- | --- |",
  "| `maxTokens` | number | 4096 | max_tokens = 4096 for the summary model |",
  "| `token` | string | — | read from `process.env.LUMEN_TOKEN` |",
  "Colours: teal #0f766e; white #fdfaf5; ink #1f2933. Time: 2026-11-03T10:00:00Z; ids 6f1c2a9e-0b3d-4e5f-a6b7-c8d9e0f1a2b3.",
  "Note: the password field (see `LoginForm.tsx:42`) must accept 64 characters; key: `Ctrl+K` opens search.",
  "",
].join("\n");
const documents = [
  ["like an agent writes", prose],
  ["technical docs (code, config, URLs, hex)", technical],
] as const;
const contextOf = (body: string, seed: number) =>
  `# Task context ${seed}\n\n${body.repeat(Math.ceil(10_000 / body.length))}`.slice(0, 10_000);

// The detector alone on each document, for the docs' figure of its cost.
for (const [name, body] of documents) {
  const text = contextOf(body, 0);
  const time = await medianNanoseconds(() => findSecrets(text), { iterations: 2_000 });
  row(`findSecrets, 10 000-character CONTEXT.md ${name}`, microseconds(time), "", "", "");
}

const directory = await mkdtemp(join(tmpdir(), "task-context-secrets-bench-"));
try {
  await mkdir(join(directory, "same"));
  await writeFile(join(directory, "same", "CONTEXT.md"), contextOf(prose, 0));
  const same = nodeWorkspace(join(directory, "same"));
  const repeated = await compareAlternating(
    {
      allow: () => loadTaskContext(same, { secrets: "allow" }),
      redact: () => loadTaskContext(same),
    },
    { iterations: 2_000 },
  );
  row(
    "load, 10 000-character CONTEXT.md, default (redact), the same file again (every tool call)",
    microseconds(repeated.redact),
    `secrets: "allow": ${microseconds(repeated.allow)}`,
    `${(repeated.redact / repeated.allow).toFixed(2)}×`,
    "≤ 1.2×",
  );

  // A changed file each time: the detector scans all of it.
  for (const [documentIndex, [name, body]] of documents.entries()) {
    const count = 300;
    const workspaces = [];
    for (let index = 0; index < count; index++) {
      const folder = join(directory, `changed-${documentIndex}-${index}`);
      await mkdir(folder);
      await writeFile(join(folder, "CONTEXT.md"), contextOf(body, index + 1));
      workspaces.push(nodeWorkspace(folder));
    }
    const first = { allow: [] as number[], redact: [] as number[] };
    for (const [index, workspace] of workspaces.entries()) {
      for (const policy of index % 2 === 0
        ? (["allow", "redact"] as const)
        : (["redact", "allow"] as const)) {
        const start = process.hrtime.bigint();
        await loadTaskContext(workspace, { secrets: policy });
        first[policy].push(Number(process.hrtime.bigint() - start));
      }
    }
    const [allowFirst, redactFirst] = [median(first.allow), median(first.redact)];
    row(
      `load, 10 000-character CONTEXT.md ${name}, default (redact), a changed file (full scan)`,
      microseconds(redactFirst),
      `secrets: "allow": ${microseconds(allowFirst)}`,
      `${(redactFirst / allowFirst).toFixed(2)}×`,
      "≤ 1.2×",
    );
  }
} finally {
  await rm(directory, { recursive: true, force: true });
}

// 3. Hostile input: 1 MB built to make each rule family backtrack, against 100 KB of the same.
//    Linear time gives milliseconds and about 10×; a quadratic rule would take minutes.
const families: Array<[string, string]> = [
  ["private key: BEGIN lines without END", "-----BEGIN RSA PRIVATE KEY-----\n"],
  [
    "provider prefixes without a key",
    "sk-ant-sk-proj-ghp_xoxb-glpat-whsec_npm_hf_gsk_xai-r8_AIza-",
  ],
  ["AWS: AKIA runs", "AKIAAKIAAKIA0"],
  ["Azure AD: Q~ runs", "abc8Q~"],
  ["JWT: segments without a dot", "eyJAAAAAAAAAAAAAAAA-"],
  ["JWT: dots without a third part", "eyJAAAAAAAAAA.eyJ"],
  ["URL: schemes and colons without @", "a://b:c"],
  ["URL: dotted scheme runs", "a.b+c-"],
  ["assignment: names without values", "password=api_key:token="],
  ["assignment: unclosed quotes", 'secret = "aaaaaaaaaaa'],
  ["Slack webhook prefixes", "https://hooks.slack.com/services/"],
];
let worst = 0;
for (const [name, unit] of families) {
  const big = unit.repeat(Math.ceil(1_000_000 / unit.length)).slice(0, 1_000_000);
  const small = big.slice(0, 100_000);
  const time = (text: string) => {
    const samples: number[] = [];
    for (let round = 0; round < 5; round++) {
      const start = process.hrtime.bigint();
      findSecrets(text);
      samples.push(Number(process.hrtime.bigint() - start));
    }
    return median(samples);
  };
  const [smallTime, bigTime] = [time(small), time(big)];
  worst = Math.max(worst, bigTime / smallTime);
  row(
    `hostile 1 MB: ${name}`,
    milliseconds(bigTime),
    `100 KB of it: ${milliseconds(smallTime)}`,
    `${(bigTime / smallTime).toFixed(1)}×`,
    "< 100 ms (linear)",
  );
}

console.log(
  `@task-context/core secrets on Node ${process.version}, ${process.platform}/${process.arch}\n`,
);
console.log(
  `Recall: ${recalled}/${SECRET_SAMPLES.length} fake secrets of ${kinds} kinds${missed.length > 0 ? ` (missed: ${missed.join(", ")})` : ""}.`,
);
console.log(
  `False positives: ${falsePositives.length}/${LOOK_ALIKES.length} look-alikes${falsePositives.length > 0 ? ` (${falsePositives.map((sample) => sample.name).join("; ")})` : ""}.\n`,
);
console.log("| benchmark | result | baseline (same run) | ratio | target |");
console.log("| --- | --- | --- | --- | --- |");
for (const line of rows) console.log(line);
