import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const packageDirectory = dirname(dirname(fileURLToPath(import.meta.url)));

/** Builds dist/ once before the suites run: every test runs the built binary, as users do. */
export default function setup(): void {
  execFileSync(join(packageDirectory, "../../node_modules/.bin/tsdown"), ["--log-level", "error"], {
    cwd: packageDirectory,
    stdio: ["ignore", "ignore", "inherit"],
  });
}
