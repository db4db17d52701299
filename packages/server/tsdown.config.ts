import { fileURLToPath } from "node:url";
import { defineConfig } from "tsdown";
import { sharedBuildOptions } from "../../tsdown.shared.ts";

/**
 * Modules that hono-openapi's schema adapters import only for other schema libraries than zod 4.
 * hono-openapi is bundled in with them pointing at an empty module, so that a user's Worker
 * bundle (wrangler) needs no aliases for modules nobody installs.
 */
const absentModule = fileURLToPath(new URL("src/workers/absent-module.ts", import.meta.url));
const optionalSchemaModules = [
  "@valibot/to-json-schema",
  "effect",
  "sury",
  "zod-openapi",
  "zod-to-json-schema",
];

export default defineConfig({
  ...sharedBuildOptions,
  entry: [
    "src/index.ts",
    "src/node.ts",
    "src/workers.ts",
    "src/client.ts",
    "src/postgres.ts",
    "src/a2a.ts",
    "src/a2a-agent.ts",
    "src/main.ts",
  ],
  alias: Object.fromEntries(optionalSchemaModules.map((name) => [name, absentModule])),
  deps: {
    neverBundle: [...sharedBuildOptions.deps.neverBundle, /^cloudflare:/],
    alwaysBundle: [/^hono-openapi/, /^@standard-community\//, /^@hono\/standard-validator/],
  },
});
