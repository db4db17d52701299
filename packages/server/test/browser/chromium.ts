// Node-only: Debian's chromium, driven by playwright-core, for the run page's browser tests. The
// tests run when /usr/bin/chromium runs; otherwise they are skipped with the reason in their names
// (.ci/run says why in TASK_CONTEXT_BROWSER=skip:<reason> when it could not install it).
import { spawnSync } from "node:child_process";
import { type Browser, chromium } from "playwright-core";

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Whether the browser tests can run here, and if not, why. */
export type BrowserVerdict = { available: true } | { available: false; reason: string };

/** The verdict from `TASK_CONTEXT_BROWSER` and the browser itself. */
export function browserVerdict(
  environment: NodeJS.ProcessEnv = process.env,
  executablePath = CHROMIUM_PATH,
): BrowserVerdict {
  const told = environment.TASK_CONTEXT_BROWSER;
  if (told?.startsWith("skip:")) return { available: false, reason: told.slice(5).trim() };
  const probe = spawnSync(executablePath, ["--version"], { encoding: "utf8", timeout: 30_000 });
  if (probe.error !== undefined || probe.status !== 0) {
    return {
      available: false,
      reason: `${executablePath} does not run (install Debian's chromium: apt-get install chromium)`,
    };
  }
  return { available: true };
}

/** The suite's title: the reason is part of it when the suite is skipped. */
export function suiteTitle(title: string, verdict: BrowserVerdict): string {
  return verdict.available ? title : `${title} (skipped: ${verdict.reason})`;
}

/** Headless chromium without its sandbox (CI runs as root in a container). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ["--headless", "--no-sandbox"],
  });
}
