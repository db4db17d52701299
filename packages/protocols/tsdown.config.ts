import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "tsdown";
import { sharedBuildOptions } from "../../tsdown.shared.ts";

// `#yaml` is chosen per runtime by the package.json `imports` conditions, at run time. The second
// build bundles the installed yaml's browser build for Deno into dist-vendor/ (see
// src/vendor/yaml.ts), its version in the banner: `check:package` holds it to the installed one.
const yamlManifest = fileURLToPath(import.meta.resolve("yaml/package.json"));
const yamlVersion: string = JSON.parse(readFileSync(yamlManifest, "utf8")).version;
const yamlBrowserBuild = yamlManifest.replace(/package\.json$/, "browser/index.js");

// yaml's ISC licence asks that its notice travel with every copy.
const yamlLicence = readFileSync(
  yamlBrowserBuild.replace(/browser\/index\.js$/, "LICENSE"),
  "utf8",
);

export default [
  defineConfig({
    ...sharedBuildOptions,
    entry: {
      index: "src/index.ts",
      "context-block": "src/context-block/index.ts",
      sage: "src/sage/index.ts",
      "context-md": "src/context-md/index.ts",
      "work-item": "src/work-item.ts",
      internal: "src/internal.ts",
    },
  }),
  defineConfig({
    ...sharedBuildOptions,
    dts: false,
    // A map of yaml's code would double what Deno users download, for code that is not ours.
    sourcemap: false,
    // Its own folder: the two builds run side by side, and each cleans only its own output.
    outDir: "dist-vendor",
    entry: { yaml: "src/vendor/yaml.ts" },
    banner: `/*! yaml ${yamlVersion} (browser build), bundled for Deno.\n${yamlLicence.trim()}\n*/`,
    alias: { yaml: yamlBrowserBuild },
    deps: { alwaysBundle: ["yaml"] },
  }),
];
