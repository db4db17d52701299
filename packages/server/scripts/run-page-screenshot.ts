// Regenerates docs/images/run-page.png: runs the demo (offline, --keep-serving) as a newcomer
// does, opens the "watch the run" link of its finished run in Debian's chromium and photographs
// the page. Build the packages first (`npm run demo` once does); then, from apps/edge:
//   node scripts/run-page-screenshot.ts [output.png]
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { browserVerdict, launchChromium } from "../test/browser/chromium.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const target = resolve(process.argv[2] ?? join(root, "docs/images/run-page.png"));

const verdict = browserVerdict();
if (!verdict.available) {
  console.error(`cannot take the screenshot: ${verdict.reason}`);
  process.exit(1);
}
const output = await mkdtemp(join(tmpdir(), "task-context-run-page-"));
const demo = spawn(
  process.execPath,
  ["src/main.ts", "--output", join(output, "out"), "--stand-in", "--keep-serving"],
  { cwd: join(root, "apps/demo-agent"), stdio: ["ignore", "pipe", "inherit"] },
);
try {
  const link = await new Promise<string>((found, failed) => {
    let printed = "";
    demo.stdout.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
      const match = /keeps serving the run page: (\S+)\n/.exec(printed);
      if (match?.[1] !== undefined) found(match[1]);
    });
    demo.once("exit", (code) => failed(new Error(`the demo exited (${code}) before serving`)));
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({
      viewport: { width: 1200, height: 900 },
      colorScheme: "light",
      deviceScaleFactor: 1,
    });
    await page.goto(link);
    // The finished run's page: the stream has nothing more to say after run.completed.
    await page.locator("#events > li[data-seq]").last().waitFor();
    await page.screenshot({ path: target, fullPage: true });
    console.log(`wrote ${target}`);
  } finally {
    await browser.close();
  }
} finally {
  if (demo.exitCode === null && demo.signalCode === null) {
    const stopped = new Promise((done) => demo.once("exit", done));
    demo.kill("SIGINT");
    await stopped;
  }
  await rm(output, { recursive: true, force: true });
}
