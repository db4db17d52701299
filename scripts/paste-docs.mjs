// The docs' paste test: every complete example on a page a user reads is pasted as a user would
// paste it. For each page with a complete example or an install line, a new project:
//
//   npm init -y                 (npm 11 writes "type": "commonjs": the page must say to change it)
//   <the page's npm commands>   (`npm pkg set type=module`, `npm install …`, in the page's order;
//                                our packages from their packed tarballs, every other package by
//                                the name the page gives, from the registry)
//
// with the CONTEXT.md of getting started's step 2 at its root. Each complete example (a `ts` block
// whose source="…" names a whole file, not a `#region`) is written verbatim to a file and run with
// `node <file>.ts` on the pinned Node 24 (its type stripping; the docs tell users the same), with
// OPENAI_BASE_URL pointing at a local stand-in for an OpenAI-compatible endpoint. It must exit 0,
// and print exactly what a `<!-- check: output -->` block after it shows. Every `deno run …`
// command of the page is run the same way on each complete example of the page, with the
// permissions the page gives. Run by scripts/check-install.mjs, on its tarballs.
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { documentedPages } from "../docs/examples/test/documented-pages.ts";
import { markdownFences } from "../docs/examples/test/markdown-fences.ts";
import { startOpenAiStandIn } from "../docs/examples/test/openai-stand-in.ts";
import { pastesOf } from "../docs/examples/test/page-pastes.ts";
import { NPM_QUIET, node24, root } from "./packed-packages.mjs";

const deno = join(root, "node_modules", "deno", "deno");
/** A hung example fails after this, rather than hanging the check; an npm command after the next. */
const TIMEOUT_MS = 60_000;
const INSTALL_TIMEOUT_MS = 600_000;

/** Runs `command` with `args`; never rejects: its exit code, output and any error. */
function runAsync(command, args, options) {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { timeout: TIMEOUT_MS, ...options, encoding: "utf8" },
      (error, stdout, stderr) => {
        resolve({
          code: error ? (error.code ?? 1) : 0,
          stdout,
          stderr,
          killed: error?.killed === true,
        });
      },
    );
  });
}

/** The first lines of what a failed run printed, for the report. */
function why(result) {
  const text = `${result.stderr}\n${result.stdout}`.trim();
  const error = text.split("\n").find((line) => /Error|error:|NotCapable/.test(line));
  return result.killed
    ? "killed: no exit before its timeout"
    : (error ?? text.split("\n")[0] ?? "").slice(0, 300);
}

/** Why the page cannot be pasted at all, or undefined. */
function problemOf(paste) {
  if (paste.examples.length > 0 && !paste.setup.some((words) => /^(install|i)$/.test(words[1]))) {
    return "complete examples, but no `npm install` line that names their packages";
  }
  if (paste.unnamed.length > 0) {
    return `its examples import ${paste.unnamed.join(", ")}, which no install line names`;
  }
  return undefined;
}

/**
 * A new project in `directory`, set up with the page's npm commands; undefined, or why it failed.
 * Our packages are as if published: a name resolves to its tarball, also as a dependency of
 * another of them (an override with the very spec a direct install writes).
 */
async function setUp(paste, directory, tarballs, contextMd) {
  mkdirSync(directory, { recursive: true });
  const spec = Object.fromEntries(
    Object.entries(tarballs).map(([name, path]) => [name, relative(directory, path)]),
  );
  const overrides = Object.entries(spec).map(([name, path]) => `overrides[${name}]=file:${path}`);
  const commands = [
    ["init", "-y"], // a user's new project (the page may say so too)
    ["pkg", "set", ...overrides],
    ...paste.setup.map(([, ...args]) => args.map((word) => spec[word] ?? word)),
  ];
  for (const args of commands) {
    const result = await runAsync("npm", [...args, ...NPM_QUIET], {
      cwd: directory,
      timeout: INSTALL_TIMEOUT_MS,
    });
    if (result.code !== 0) return `npm ${args.join(" ")}: ${why(result)}`;
  }
  writeFileSync(join(directory, "CONTEXT.md"), `${contextMd}\n`);
  return undefined;
}

/** At most this many projects are installed at once. */
const CONCURRENT_INSTALLS = 3;

/** `task` for every item, at most `limit` at once; the results in the items' order. */
async function inPool(items, limit, task) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Pastes the pages' examples into fresh projects under `work`, with our packages from `tarballs`
 * (name → path). Returns a report row per paste and the failures.
 */
export async function pasteDocs({ work, tarballs, pages = documentedPages() }) {
  const rows = [];
  const failures = [];
  const check = (name, ok, detail) => {
    rows.push(`| ${name} | ${ok ? "ok" : "FAILED"} | ${detail} |`);
    if (!ok) failures.push(`${name}: ${detail}`);
  };
  const contextMd = markdownFences(
    join(root, "docs/getting-started.md"),
    "docs/getting-started.md",
  ).find((fence) => fence.check === "context-md")?.body;
  const pastes = pages
    .map(pastesOf)
    .filter((paste) => paste.examples.length > 0 || paste.setup.length > 0)
    .map((paste) => ({
      ...paste,
      directory: join(work, "pages", paste.page.replace(/[/.]/g, "-")),
      problem: problemOf(paste),
    }));
  const setUps = await inPool(pastes, CONCURRENT_INSTALLS, (paste) =>
    paste.problem === undefined
      ? setUp(paste, paste.directory, tarballs, contextMd)
      : Promise.resolve(paste.problem),
  );
  const standIn = await startOpenAiStandIn();
  const env = {
    PATH: `${dirname(node24)}:${process.env.PATH ?? ""}`,
    HOME: process.env.HOME ?? "/tmp",
    OPENAI_BASE_URL: standIn.baseUrl,
    OPENAI_API_KEY: "sk-docs-paste-test",
    DENO_DIR: join(root, "node_modules", ".cache", "deno"),
    NO_COLOR: "1",
  };
  try {
    for (const [index, paste] of pastes.entries()) {
      const name = `paste ${paste.page}`;
      const directory = paste.directory;
      if (setUps[index] !== undefined) {
        check(name, false, setUps[index]);
        continue;
      }
      if (paste.examples.length === 0) check(name, true, "its npm commands");
      for (const example of paste.examples) {
        const where = `${name}:${example.fence.line} (${example.file})`;
        writeFileSync(join(directory, example.file), `${example.fence.body}\n`);
        const runs = [
          { runtime: "", command: node24, args: [example.file] },
          ...paste.deno.map((words) => ({
            runtime: " on Deno",
            command: deno,
            args: words.slice(1).map((word) => (/\.ts$/.test(word) ? example.file : word)),
          })),
        ];
        for (const { runtime, command, args } of runs) {
          const result = await runAsync(command, args, { cwd: directory, env });
          const shown = `${runtime === "" ? "node" : "deno"} ${args.join(" ")}`;
          if (result.code !== 0) {
            check(`${where}${runtime}`, false, `${shown}: exit ${result.code}: ${why(result)}`);
          } else if (example.output !== undefined && result.stdout !== `${example.output}\n`) {
            check(
              `${where}${runtime}`,
              false,
              `printed ${JSON.stringify(result.stdout)}, the page shows ${JSON.stringify(example.output)}`,
            );
          } else {
            check(
              `${where}${runtime}`,
              true,
              `${shown}${example.output === undefined ? "" : ", output as shown"}`,
            );
          }
        }
      }
    }
  } finally {
    await standIn.close();
  }
  return { rows, failures };
}
