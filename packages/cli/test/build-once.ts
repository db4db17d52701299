import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { packProblem } from "../../../scripts/prepack-guard.mjs";

const packageDirectory = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * Builds dist/ before the suites run when it is missing or older than src/: every test runs the
 * built binary, as users do. A fresh build is left alone — rebuilding it (tsdown empties dist/
 * first) would pull it from under whatever reads it meanwhile, such as the install check packing
 * the CLI beside the tests.
 */
export default function setup(): void {
  if (packProblem(packageDirectory) === undefined) return;
  execFileSync(join(packageDirectory, "../../node_modules/.bin/tsdown"), ["--log-level", "error"], {
    cwd: packageDirectory,
    stdio: ["ignore", "ignore", "inherit"],
  });
}
