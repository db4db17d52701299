#!/usr/bin/env node
// The public API surface: how many names each entry point of each published package exports,
// read from the built type declarations (run `pnpm run build` first). Prints a line per entry
// point and the totals; the `/internal` entry points and `@task-context/core/tracing` are counted on
// their own line, as they carry no compatibility promise. Names marked `@deprecated` (re-exports
// kept for one minor version after a move) are counted apart: `server: 36 (+67 deprecated)`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const TRACING = "@task-context/core/tracing";
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const ts = createRequire(join(root, "package.json"))("typescript");
let total = 0;
let internal = 0;
let deprecated = 0;
const unique = new Set();
for (const directory of readdirSync(join(root, "packages"))) {
  const folder = join(root, "packages", directory);
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
  if (manifest.private) continue;
  const entries = Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === "object" && target.types !== undefined)
    .map(([subpath, target]) => [subpath, join(folder, target.types)])
    .filter(([, file]) => existsSync(file));
  const program = ts.createProgram(
    entries.map(([, file]) => file),
    {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  for (const [subpath, file] of entries) {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(file));
    const exported = symbol === undefined ? [] : checker.getExportsOfModule(symbol);
    const isDeprecated = (name) => {
      const target = name.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(name) : name;
      return (target.declarations ?? []).some((declaration) =>
        ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === "deprecated"),
      );
    };
    const old = exported.filter(isDeprecated).length;
    const names = exported.filter((name) => !isDeprecated(name)).map((name) => name.name);
    console.log(
      `${manifest.name}${subpath.slice(1)}: ${names.length}${old === 0 ? "" : ` (+${old} deprecated)`}`,
    );
    deprecated += old;
    if (subpath === "./internal" || `${manifest.name}${subpath.slice(1)}` === TRACING) {
      internal += names.length;
      continue;
    }
    total += names.length;
    for (const name of names) unique.add(`${manifest.name}:${name}`);
  }
}
console.log(
  `public: ${total} names over all entry points, ${unique.size} distinct per package; /internal and core/tracing: ${internal}; deprecated: ${deprecated}`,
);
