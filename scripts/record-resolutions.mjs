// Preloaded with `node --import`: records every module specifier the process resolves, imported
// or required, from the entry point on, and prints `[{ specifier, url }, …]` as JSON on standard
// output when the process exits. `resolved-modules.ts` runs it for the tests that prove which
// packages an entry point loads. Needs module.registerHooks (Node ≥ 22.15; the root `node` is 24).
import { writeSync } from "node:fs";
import { registerHooks } from "node:module";

const resolutions = [];
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    resolutions.push({ specifier, url: resolved.url });
    return resolved;
  },
});
process.on("exit", () => {
  writeSync(1, JSON.stringify(resolutions));
});
