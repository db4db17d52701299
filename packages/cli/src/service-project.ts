// The projects `task-context init --service` writes: the delivery service as a user deploys it.
// Their files are in templates/service-<runtime>/ of this package, the one place they are kept:
// apps/edge holds the same src/worker.ts, wrangler.jsonc and Node entry, and a test
// (test/init-service.test.ts) fails when the two differ.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

/** The runtimes `task-context init --service` writes a project for. */
export const SERVICE_RUNTIMES = ["workers", "node"] as const;

/** One of {@link SERVICE_RUNTIMES}. */
export type ServiceRuntime = (typeof SERVICE_RUNTIMES)[number];

/** A project to write: what it is, its files (paths relative to its folder), what to run next. */
export interface ServiceProject {
  /** Says what was written: "a Cloudflare Workers project for the delivery service". */
  title: string;
  files: { path: string; text: string }[];
  /** The commands to run in the project's folder, each with what it does (or nothing). */
  next: [command: string, note?: string][];
}

const PROJECTS: Record<ServiceRuntime, Omit<ServiceProject, "files"> & { files: string[] }> = {
  workers: {
    title: "a Cloudflare Workers project for the delivery service",
    files: ["package.json", "src/worker.ts", "wrangler.jsonc", "README.md"],
    next: [
      ["npm install"],
      ["npx wrangler dev --var TASK_CONTEXT_ADMIN_TOKEN:change-me", "locally, no account needed"],
      ["npx wrangler deploy", "to your Cloudflare account"],
      ["npx wrangler secret put TASK_CONTEXT_ADMIN_TOKEN", "the deployed service's admin token"],
    ],
  },
  node: {
    title: "a Node project for the delivery service",
    files: ["package.json", "src/server.ts", "README.md"],
    next: [
      ["npm install"],
      ["TASK_CONTEXT_ADMIN_TOKEN=change-me npm start", "Node ≥ 22.18, on http://127.0.0.1:8787"],
    ],
  },
};

/**
 * The folder of the templates. This file sits one level below the package's root, in src/ as
 * in dist/ (where the build bundles it), so templates/ is `../templates/` from either.
 */
export const TEMPLATES = new URL("../templates/", import.meta.url);

/**
 * A dependency of a template's package.json on a package of this repository is written
 * `"workspace:^"`, as within the repository; the project gets `^<version>` of the one installed
 * with this CLI (the release that ships this CLI ships that version too), as `pnpm publish`
 * turns `workspace:^` into a range.
 */
function withInstalledVersions(manifest: string): string {
  const require = createRequire(import.meta.url);
  return manifest.replace(/"(@task-context\/[\w-]+)": "workspace:\^"/g, (_, name: string) => {
    const { version } = require(`${name}/package.json`) as { version: string };
    return `"${name}": "^${version}"`;
  });
}

/** The project `task-context init --service <runtime>` writes. */
export async function serviceProject(runtime: ServiceRuntime): Promise<ServiceProject> {
  const { title, files, next } = PROJECTS[runtime];
  const folder = new URL(`service-${runtime}/`, TEMPLATES);
  return {
    title,
    next,
    files: await Promise.all(
      files.map(async (path) => {
        const text = await readFile(new URL(path, folder), "utf8");
        return { path, text: path === "package.json" ? withInstalledVersions(text) : text };
      }),
    ),
  };
}
