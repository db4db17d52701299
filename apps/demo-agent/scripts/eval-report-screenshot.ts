// Regenerates docs/images/eval-report.png: runs `task-context eval` on the demo's recipients as
// `pnpm eval` does (offline, fresh results), opens the HTML report it writes in Debian's chromium
// (driven by playwright-core, as the run page's browser tests are) and photographs the page.
// Build the packages first (`npm run demo` once does); then, from the repository root:
//   node_modules/.bin/pnpm --filter ./apps/demo-agent eval:screenshot [output.png]
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { chromium } from "playwright-core";

/** Where Debian's `chromium` package puts the browser (`apt-get install chromium`). */
const CHROMIUM_PATH = "/usr/bin/chromium";

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const root = resolve(packageRoot, "../..");
// `pnpm … eval:screenshot -- out.png` hands the script the "--" itself.
const argument = process.argv.slice(2).find((word) => word !== "--");
const target = resolve(
  process.env.INIT_CWD ?? process.cwd(),
  argument ?? join(root, "docs/images/eval-report.png"),
);
const cli = join(
  dirname(createRequire(import.meta.url).resolve("@task-context/cli/package.json")),
  "dist/cli.js",
);

const { OPENAI_API_KEY, OPENAI_BASE_URL, ...environment } = process.env;
const output = await mkdtemp(join(tmpdir(), "task-context-eval-report-"));
try {
  const report = join(output, "eval-report.html");
  await promisify(execFile)(
    process.execPath,
    [cli, "eval", "eval/eval.yaml", "--results", join(output, "results.jsonl"), "--report", report],
    { cwd: packageRoot, env: { ...environment, NO_COLOR: "1" } },
  );
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ["--headless", "--no-sandbox"],
  });
  try {
    const page = await browser.newPage({
      viewport: { width: 1000, height: 700 },
      colorScheme: "light",
      deviceScaleFactor: 1,
    });
    await page.goto(pathToFileURL(report).href);
    await page.screenshot({ path: target, fullPage: true });
    console.log(`wrote ${target}`);
  } finally {
    await browser.close();
  }
} finally {
  await rm(output, { recursive: true, force: true });
}
