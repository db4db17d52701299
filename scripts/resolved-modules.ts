import { spawnSync } from "node:child_process";

/** One module a process resolved: the specifier as written, and the URL it resolved to. */
export interface Resolution {
  specifier: string;
  url: string;
}

const RECORDER = new URL("./record-resolutions.mjs", import.meta.url).href;

/**
 * Every module a fresh Node process resolves to import `specifier` from `directory`, in order:
 * the import as a user's code makes it there, through the exports maps with Node's own
 * conditions (no `@task-context/source`), so a workspace package resolves to its built `dist/`,
 * which must exist (`node_modules/.bin/pnpm run build`).
 */
export function resolvedModules(specifier: string, directory: string): Resolution[] {
  const child = spawnSync(
    process.execPath,
    ["--import", RECORDER, "--input-type=module", "--eval", `import ${JSON.stringify(specifier)};`],
    { cwd: directory, encoding: "utf8" },
  );
  if (child.status !== 0) {
    throw new Error(
      `node could not import ${specifier} from ${directory} (are the packages built?):\n${child.stderr}`,
    );
  }
  return JSON.parse(child.stdout) as Resolution[];
}

/** Whether `resolutions` include `@opentelemetry/api`: imported by name or loaded from its files. */
export function loadsOpenTelemetryApi(resolutions: readonly Resolution[]): boolean {
  return resolutions.some(
    ({ specifier, url }) =>
      specifier === "@opentelemetry/api" ||
      specifier.startsWith("@opentelemetry/api/") ||
      url.includes("/node_modules/@opentelemetry/api/"),
  );
}
