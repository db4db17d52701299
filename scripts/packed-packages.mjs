// The packages as a user receives them: packed as the registry would receive them, installed with
// npm into fresh projects. Shared by the install check (scripts/check-install.mjs) and the docs'
// paste test (scripts/paste-docs.mjs), which run on one set of tarballs.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = dirname(dirname(fileURLToPath(import.meta.url)));
/** The pinned Node 24 of the toolchain (the machine's own Node is scripts/system-node.mjs). */
export const node24 = join(root, "node_modules", "node", "bin", "node");
const pnpm = join(root, "node_modules", ".bin", "pnpm");

/** Runs `command` in `cwd`; its stdout, or an Error that shows what it printed. */
export function run(command, args, cwd, env = process.env) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed:\n${result.stderr || result.stdout}`);
  }
  return result.stdout;
}

/** The bytes under `path`, a file or a directory. */
export function sizeOf(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of readdirSync(path)) total += sizeOf(join(path, entry));
  return total;
}

/**
 * Packs every published package of packages/ into `directory` (after `pnpm run build`). Returns
 * their manifests and, by package name, the tarball's path.
 */
export function packPackages(directory) {
  mkdirSync(directory, { recursive: true });
  const manifests = readdirSync(join(root, "packages"))
    .map((folder) =>
      JSON.parse(readFileSync(join(root, "packages", folder, "package.json"), "utf8")),
    )
    .filter((manifest) => manifest.private !== true);
  const tarballs = {};
  for (const manifest of manifests) {
    const output = run(
      pnpm,
      ["--filter", manifest.name, "pack", "--pack-destination", directory],
      root,
    );
    tarballs[manifest.name] = output.trim().split("\n").at(-1);
  }
  return { manifests, tarballs };
}

/**
 * What npm is told on every call here: no audit, no funding notes, errors only, and what its cache
 * already holds is not asked for again (the projects of one check install the same packages).
 */
export const NPM_QUIET = ["--no-audit", "--no-fund", "--loglevel=error", "--prefer-offline"];

/** npm, quietly. */
export function npm(args, cwd) {
  return run("npm", [...args, ...NPM_QUIET], cwd);
}

/**
 * A new ESM project `name` under `work` with `dependencies` (a tarball as `file:<path>`),
 * installed; `overrides` (npm's) make our packages' dependencies on each other resolve to their
 * tarballs too, as if published.
 */
export function installedProject(work, name, dependencies, overrides) {
  const directory = join(work, name);
  mkdirSync(directory);
  const manifest = { name, private: true, type: "module", dependencies, overrides };
  writeFileSync(join(directory, "package.json"), JSON.stringify(manifest, null, 2));
  npm(["install"], directory);
  return directory;
}

/** The packages installed under `nodeModules`, nested ones included: their names, sorted. */
export function packagesIn(nodeModules) {
  const names = [];
  const walk = (folder) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder)) {
      if (entry.startsWith(".")) continue;
      const scoped = entry.startsWith("@");
      for (const name of scoped ? readdirSync(join(folder, entry)) : [entry]) {
        const path = join(folder, scoped ? entry : "", name);
        if (!existsSync(join(path, "package.json"))) continue;
        names.push(scoped ? `${entry}/${name}` : name);
        walk(join(path, "node_modules"));
      }
    }
  };
  walk(nodeModules);
  return names.sort();
}
