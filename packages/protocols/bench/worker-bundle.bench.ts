// The size of a Cloudflare Worker that only validates and parses context blocks, bundled from the
// BUILT package the way `wrangler deploy --minify` bundles it (esbuild, the `workerd`, `worker`
// and `browser` conditions, ES module output), and with rolldown; gzipped at level 9. The
// baseline, bundled in the same run, is a Worker that uses the bare dependencies the same way:
// yaml's composer and one zod/mini schema, so the ratio is what the package adds to them.
// Run from packages/protocols after a build: node bench/worker-bundle.bench.ts
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { rolldown } from "rolldown";

const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const conditions = ["workerd", "worker", "browser"];

const workers = {
  "validate + parseContextBlock (this package)": `
    import { validate } from "@task-context/protocols";
    import { parseContextBlock } from "@task-context/protocols/context-block";
    export default {
      async fetch(request) {
        const parsed = parseContextBlock(await request.text());
        const checked = parsed.status === "found" ? validate("context-block.v1", parsed.block) : undefined;
        return Response.json({ parsed, checked });
      },
    };`,
  "baseline: yaml's parseDocument + one zod/mini schema": `
    import { parseDocument } from "yaml";
    import * as z from "zod/mini";
    const block = z.strictObject({ version: z.literal(1), project: z.strictObject({ path: z.string(), stack: z.string() }) });
    export default {
      async fetch(request) {
        const value = parseDocument(await request.text(), { uniqueKeys: false }).toJS();
        return Response.json(block.safeParse(value));
      },
    };`,
};

/** Minified bytes and gzipped bytes of `entry` bundled by esbuild and by rolldown. */
async function bundle(entry: string) {
  const esbuildOutput = await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "neutral",
    conditions,
    mainFields: ["browser", "module", "main"],
    minify: true,
    write: false,
    logLevel: "silent",
  });
  const esbuildCode = (esbuildOutput.outputFiles[0] as { contents: Uint8Array }).contents;
  const rolldownBuild = await rolldown({
    input: entry,
    platform: "browser",
    resolve: { conditionNames: [...conditions, "import", "default"] },
    logLevel: "silent",
  });
  const { output } = await rolldownBuild.generate({ format: "esm", minify: true });
  const rolldownCode = new TextEncoder().encode(output[0].code);
  return {
    esbuild: { raw: esbuildCode.length, gzip: gzipSync(esbuildCode, { level: 9 }).length },
    rolldown: { raw: rolldownCode.length, gzip: gzipSync(rolldownCode, { level: 9 }).length },
  };
}

// The entries live inside the package, so that "@task-context/protocols" resolves to this
// package's built output through its own `exports`, as it does for a user's Worker.
const directory = await mkdtemp(join(packageRoot, "bench/.worker-"));
const sizes: Record<string, Awaited<ReturnType<typeof bundle>>> = {};
try {
  for (const [name, source] of Object.entries(workers)) {
    const entry = join(directory, `${Object.keys(sizes).length}.js`);
    await writeFile(entry, source);
    sizes[name] = await bundle(entry);
  }
} finally {
  await rm(directory, { recursive: true, force: true });
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const [candidate, baseline] = Object.values(sizes) as [
  Awaited<ReturnType<typeof bundle>>,
  Awaited<ReturnType<typeof bundle>>,
];
console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}; Node ${process.versions.node}\n`,
);
console.log("| Worker | bundler | minified | gzipped | ratio to the baseline (gzipped) | target |");
console.log("| --- | --- | --- | --- | --- | --- |");
for (const [name, size] of Object.entries(sizes)) {
  for (const bundler of ["esbuild", "rolldown"] as const) {
    const gzipRatio = (size[bundler].gzip / baseline[bundler].gzip).toFixed(2);
    const target = size === candidate && bundler === "esbuild" ? "≤ 100 KB gzipped" : "";
    console.log(
      `| ${name} | ${bundler} | ${kilobytes(size[bundler].raw)} | ${kilobytes(size[bundler].gzip)} | ${gzipRatio}× | ${target} |`,
    );
  }
}
if (candidate.esbuild.gzip > 100 * 1024) {
  console.log(`\nOver the 100 KB target: ${kilobytes(candidate.esbuild.gzip)} gzipped.`);
}
