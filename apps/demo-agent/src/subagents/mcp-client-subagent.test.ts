// The MCP subagent's claim, checked on its source: it receives its task context only through MCP.
// Neither its script nor any demo file it imports imports @task-context/core (the loader), and it
// imports no way to read a file. (demo.test.ts runs it and checks what it received.)
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("./mcp-client-subagent.ts", import.meta.url));

/** The import statements of a source file: the specifier and what it names. */
async function importsOf(file: string): Promise<{ specifier: string; names: string }[]> {
  const source = await readFile(file, "utf8");
  return [...source.matchAll(/^import\s+(?:type\s+)?([\s\S]*?)\s*from\s+"([^"]+)";$/gm)].map(
    (match) => ({ names: match[1] ?? "", specifier: match[2] ?? "" }),
  );
}

/** Every package the file and the demo files it imports (followed recursively) import. */
async function packagesImportedBy(file: string, seen = new Set<string>()): Promise<Set<string>> {
  const packages = new Set<string>();
  if (seen.has(file)) return packages;
  seen.add(file);
  for (const { specifier } of await importsOf(file)) {
    if (specifier.startsWith(".")) {
      const imported = await packagesImportedBy(join(dirname(file), specifier), seen);
      for (const name of imported) packages.add(name);
    } else {
      packages.add(specifier);
    }
  }
  return packages;
}

describe("the MCP subagent's script", () => {
  it("imports nothing of @task-context/core, directly or through the demo's own files", async () => {
    const packages = [...(await packagesImportedBy(SCRIPT))].sort();
    expect(packages.filter((name) => /^@task-context\/core(\/|$)/.test(name))).toEqual([]);
    expect(packages).toEqual([
      "@ai-sdk/openai",
      "@modelcontextprotocol/client",
      "@modelcontextprotocol/client/stdio",
      "@task-context/protocols/context-block",
      "@task-context/protocols/sage",
      "@task-context/system-prompt",
      "ai",
      "node:fs/promises",
      "node:path",
      "node:stream/consumers",
    ]);
  });

  it("can write its files but imports nothing that reads one", async () => {
    const fileSystem = (await importsOf(SCRIPT)).filter(({ specifier }) =>
      /^(node:)?fs(\/promises)?$/.test(specifier),
    );
    expect(fileSystem).toEqual([{ specifier: "node:fs/promises", names: "{ writeFile }" }]);
  });

  it("finds the imports of a file that has them (the check can fail)", async () => {
    const alternative = fileURLToPath(new URL("./alt-text-subagent.ts", import.meta.url));
    expect(await packagesImportedBy(alternative)).toContain("@task-context/core");
  });
});
