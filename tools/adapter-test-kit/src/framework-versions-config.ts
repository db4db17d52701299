// The vitest config the agent-framework adapters share: every test file runs once per end of the
// framework range an adapter claims, with both versions read from the adapter's package.json.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, mergeConfig, type ViteUserConfig } from "vitest/config";
import shared from "../../../vitest.shared.ts";

/** What {@link frameworkVersionsConfig} needs to know of an adapter. */
export interface FrameworkVersionsOptions {
  /** `import.meta.url` of the adapter's `vitest.config.ts`: its package.json sits beside it. */
  configUrl: string;
  /** The framework's package as the adapter imports it, such as `@langchain/langgraph`. */
  framework: string;
  /**
   * An environment variable that tells each run which version it runs (such as
   * `LANGGRAPH_VERSION`), for tests that name it or check the installed one.
   */
  versionVariable?: string;
}

/** One version of the framework and the package it is installed as. */
interface FrameworkVersion {
  version: string;
  installedAs: string;
}

/** `@langchain/langgraph` as a regular expression's source. */
function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * The newest version (the devDependency named as the framework, an exact version) and the
 * lowest (the devDependency `<framework>-lowest`, an `npm:<framework>@<version>` alias).
 */
function frameworkVersions(packageJsonPath: string, framework: string): FrameworkVersion[] {
  const manifest = JSON.parse(readFileSync(packageJsonPath, "utf8")) as {
    devDependencies?: Record<string, string>;
  };
  const newest = manifest.devDependencies?.[framework];
  const lowest = manifest.devDependencies?.[`${framework}-lowest`];
  const lowestVersion = lowest?.startsWith(`npm:${framework}@`)
    ? lowest.slice(`npm:${framework}@`.length)
    : undefined;
  if (newest === undefined || !/^\d/.test(newest) || lowestVersion === undefined) {
    throw new Error(
      `${packageJsonPath} needs the devDependencies "${framework}": "<newest version>" and "${framework}-lowest": "npm:${framework}@<lowest version>", the two ends of the range the adapter claims.`,
    );
  }
  return [
    { version: newest, installedAs: framework },
    { version: lowestVersion, installedAs: `${framework}-lowest` },
  ];
}

/**
 * An adapter's vitest config: the shared settings, and every test file run twice as two projects
 * named `<framework> <version>` — against the newest version of the framework the adapter claims
 * and against the lowest, to which every import of the framework in src/ and the tests is
 * redirected — its `package.json` too, so a test that checks the manifest's version checks the
 * redirect. The newest's `package.json` is read from its folder, as some versions do not export it.
 * Each adapter's `vitest.config.ts` is one call of it (see packages/langgraph/vitest.config.ts).
 */
export function frameworkVersionsConfig(options: FrameworkVersionsOptions): ViteUserConfig {
  const { configUrl, framework, versionVariable } = options;
  const versions = frameworkVersions(
    fileURLToPath(new URL("./package.json", configUrl)),
    framework,
  );
  const name = escapeForPattern(framework);
  return mergeConfig(
    shared,
    defineConfig({
      test: {
        projects: versions.map(({ version, installedAs }) => ({
          extends: true,
          resolve: {
            alias: [
              installedAs === framework
                ? {
                    find: new RegExp(`^${name}/package\\.json$`),
                    replacement: fileURLToPath(
                      new URL(`./node_modules/${framework}/package.json`, configUrl),
                    ),
                  }
                : { find: new RegExp(`^${name}(?=/|$)`), replacement: installedAs },
            ],
          },
          test: {
            name: `${framework} ${version}`,
            ...(versionVariable === undefined ? {} : { env: { [versionVariable]: version } }),
          },
        })),
      },
    }),
  );
}
