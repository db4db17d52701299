// Figures in the docs that a command measures (sizes, outside docs/benchmarks.md, whose figures
// come from `pnpm run bench` against a baseline), re-measured on every check, so a stale figure
// fails. On a page a figure is written between two comments that name its measurement:
//
//   bundles to <!-- figure workers-bundle -->2141.13 KiB, 385.22 KiB gzipped, 486 KiB of it the MCP SDK<!-- /figure -->
//
// and the page names the command that measures it. Each number between the comments must be
// within TOLERANCE of what the command gives now, in the same order. Run by
// scripts/check-install.mjs after the build.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { documentedPages } from "../docs/examples/test/documented-pages.ts";
import { node24, npm, root, sizeOf } from "./packed-packages.mjs";

/** How far a figure may be from its measurement: ±5 %. */
export const TOLERANCE = 0.05;

const FIGURE = /(?<!`)<!--\s*figure\s+([\w-]+)\s*-->([\s\S]*?)<!--\s*\/figure\s*-->/g;

function output(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

/** Each measurement: the command the docs name, and how to read its numbers. */
const MEASUREMENTS = {
  /**
   * apps/edge: `wrangler deploy --dry-run --outdir <dir> --metafile` — KiB, KiB gzipped, then the
   * KiB of it that are the MCP SDK's modules and the A2A SDK's (esbuild's metafile: bytes each
   * input left in the bundle).
   */
  "workers-bundle": (work) => {
    const outdir = join(work, "workers-bundle");
    const printed = output(
      join(root, "node_modules", ".bin", "pnpm"),
      ["exec", "wrangler", "deploy", "--dry-run", "--outdir", outdir, "--metafile"],
      join(root, "apps", "edge"),
    );
    const sizes = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(printed);
    if (sizes === null) throw new Error(`wrangler printed no "Total Upload" line:\n${printed}`);
    const meta = JSON.parse(readFileSync(join(outdir, "bundle-meta.json"), "utf8"));
    const bytesOf = (folder) =>
      Object.values(meta.outputs)
        .flatMap((bundled) => Object.entries(bundled.inputs))
        .filter(([path]) => path.includes(folder))
        .reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
    return [
      Number(sizes[1]),
      Number(sizes[2]),
      bytesOf("/@modelcontextprotocol/") / 1024,
      bytesOf("/@a2a-js/") / 1024,
    ];
  },
  /** packages/protocols: `node bench/worker-bundle.bench.ts` — this package's Worker, esbuild, KB gzipped. */
  "protocols-worker-bundle": () => {
    const printed = output(
      node24,
      ["bench/worker-bundle.bench.ts"],
      join(root, "packages", "protocols"),
    );
    const row = printed.split("\n").find((line) => /\(this package\) \| esbuild \|/.test(line));
    const gzipped = row?.split("|")[4]?.trim();
    if (gzipped === undefined) throw new Error(`the bench printed no esbuild row:\n${printed}`);
    return [Number.parseFloat(gzipped)];
  },
  /** `npm install gpt-tokenizer` in a new project — MB (2^20 bytes) of node_modules/gpt-tokenizer. */
  "gpt-tokenizer-installed": (work) => {
    const directory = join(work, "gpt-tokenizer");
    mkdirSync(directory, { recursive: true });
    npm(["init", "-y"], directory);
    npm(["install", "gpt-tokenizer"], directory);
    return [sizeOf(join(directory, "node_modules", "gpt-tokenizer")) / 1_048_576];
  },
};

/** Every figure of the pages: where, its measurement's name, the numbers written. */
export function figuresOf(pages = documentedPages()) {
  return pages.flatMap((page) =>
    [...readFileSync(join(root, page), "utf8").matchAll(FIGURE)].map((match) => ({
      page,
      name: match[1],
      numbers: [...match[2].replace(/(\d) (?=\d{3}\b)/g, "$1").matchAll(/\d+(?:\.\d+)?/g)].map(
        (number) => Number(number[0]),
      ),
    })),
  );
}

/** Measures every figure the pages hold (each measurement once) and compares. */
export function checkFigures({ work }) {
  const rows = [];
  const failures = [];
  const figures = figuresOf();
  const measured = new Map();
  for (const figure of figures) {
    const name = `figure ${figure.name} in ${figure.page}`;
    const measure = MEASUREMENTS[figure.name];
    if (measure === undefined) {
      rows.push(`| ${name} | FAILED | no such measurement in scripts/doc-figures.mjs |`);
      failures.push(`${name}: no such measurement`);
      continue;
    }
    let now;
    try {
      if (!measured.has(figure.name)) measured.set(figure.name, measure(work));
      now = measured.get(figure.name);
    } catch (error) {
      rows.push(`| ${name} | FAILED | ${error.message.split("\n")[0]} |`);
      failures.push(`${name}: ${error.message}`);
      continue;
    }
    const off =
      figure.numbers.length !== now.length ||
      figure.numbers.some(
        (number, index) => Math.abs(number - now[index]) > TOLERANCE * now[index],
      );
    const detail = `written ${figure.numbers.join(", ")}; measured ${now.map((number) => number.toFixed(2)).join(", ")} (±${TOLERANCE * 100} %)`;
    rows.push(`| ${name} | ${off ? "FAILED" : "ok"} | ${detail} |`);
    if (off) failures.push(`${name}: ${detail}`);
  }
  return { rows, failures };
}
