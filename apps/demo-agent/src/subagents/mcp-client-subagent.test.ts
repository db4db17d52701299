// The MCP subagent's claim, checked on its source: it receives its task context only through MCP.
// Neither its script nor any demo file it imports imports @task-context/core (the loader), and it
// imports no way to read a file. (demo.test.ts runs it in the demo and checks what it received;
// here it also runs once against a workspace without CONTEXT.md.)
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MCP_SERVER_VARIABLE } from "./child-environment.ts";
import { mcpServerCommand } from "./mcp-server-command.ts";

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

/** Runs the script as the spawner does: `environment` added, `prompt` on stdin. */
function runScript(environment: Record<string, string>, prompt: string) {
  const { status, stdout, stderr } = spawnSync(process.execPath, [SCRIPT], {
    env: { ...process.env, ...environment },
    input: prompt,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: status, stdout, stderr };
}

describe("the MCP subagent's script", () => {
  it("imports nothing of @task-context/core, directly or through the demo's own files", async () => {
    const packages = [...(await packagesImportedBy(SCRIPT))].sort();
    expect(packages.filter((name) => /^@task-context\/core(\/|$)/.test(name))).toEqual([]);
    expect(packages).toEqual([
      "@ai-sdk/openai",
      "@modelcontextprotocol/client",
      "@modelcontextprotocol/client/stdio",
      // Its spans, recorded as in every process of the demo (child-spans.ts, span-recording.ts).
      "@opentelemetry/api",
      "@opentelemetry/context-async-hooks",
      "@opentelemetry/core",
      "@opentelemetry/otlp-transformer",
      "@opentelemetry/resources",
      "@opentelemetry/sdk-trace-base",
      "@task-context/protocols/context-block",
      "@task-context/protocols/sage",
      "@task-context/system-prompt",
      "ai",
      "node:fs", // writeFileSync: its spans, at exit
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

  it("fails with the server's guidance, and writes nothing, when its workspace has no CONTEXT.md", async () => {
    const directory = await mkdtemp(join(tmpdir(), "task-context-mcp-subagent-"));
    try {
      const outcome = runScript(
        {
          TASK_CONTEXT_WORKSPACE: directory,
          TASK_CONTEXT_CONTEXT_FILE: ".sage/context/headline.xml",
          [MCP_SERVER_VARIABLE]: JSON.stringify(await mcpServerCommand()),
        },
        "Write the headline.",
      );
      expect(outcome).toEqual({
        code: 1,
        stdout: "",
        stderr:
          "MCP subagent failed: CONTEXT.md not found in workspace. Before using multimodal tools or spawning subagents, create a CONTEXT.md file with task context. See system prompt for instructions.\nThere is no CONTEXT.md at the workspace root.\n",
      });
      expect(await readdir(directory)).toEqual([]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
