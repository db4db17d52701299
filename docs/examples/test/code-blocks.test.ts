// Every code block on the pages a user reads (README.md, CONTRIBUTING.md, docs/*.md and the
// packages' and apps' READMEs) is held to the code here, block by block:
//
// - TypeScript and JavaScript: a region of a type-checked example file, named by `source="…"` on
//   the fence and kept identical by scripts/sync-examples.mjs (`--check` in CI). The example
//   files are run by the tests of their package (src/examples.test.ts) or of docs/examples; a
//   block that shows a whole file also runs as pasted into a new project (scripts/paste-docs.mjs).
// - JSON: parsed; every object in it shaped like a published format (a work item, an event, a
//   review, an artifact, a subagent's output) is valid against that format's schema.
// - YAML, XML and TOML: must say, in `<!-- check: … -->` on the line before the fence, what they
//   are, and pass that check (see CHECKS below). TOML appears only as an MCP client's
//   configuration (docs/mcp.md), whose `tested-by` test parses it and starts the server it names.
// - Shell: every command is checked here — a package to install exists, a script to run is
//   defined, a directory to enter exists (the folder `task-context init --service` writes is the
//   CLI's template of it, which packages/cli/test/init-service.test.ts holds to apps/edge) — except the curl requests of the delivery-service
//   pages (HTTP_PAGES): they need a running service and ids from earlier answers. The
//   walkthrough's run against the real service in walkthrough.test.ts; the service's contract
//   suites (packages/server/test/contract/) make the others' requests and check the same answers.
// - Text, Markdown and untagged blocks are shown output, not code; where one is a value the code
//   computes, `<!-- check: same-as … -->` or `<!-- check: excerpt-of … -->` compares it.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { injectTaskContext, loadTaskContext, memoryWorkspace } from "@task-context/core";
import { type SchemaName, validate } from "@task-context/protocols";
import { parseContextBlock } from "@task-context/protocols/context-block";
import { lintContextMd } from "@task-context/protocols/context-md";
import { loadContextLimits, parseSubagentContext } from "@task-context/protocols/sage";
import { buildSystemPrompt } from "@task-context/system-prompt";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { documentedPages, root } from "./documented-pages.ts";
import { type Fence, markdownFences } from "./markdown-fences.ts";
import { pastesOf } from "./page-pastes.ts";
import { commandsOf } from "./shell-commands.ts";

const fences: Fence[] = documentedPages().flatMap((page) => markdownFences(join(root, page), page));
const where = (fence: Fence) => `${fence.file}:${fence.line}`;
const ofLanguage = (...languages: string[]) =>
  fences.filter((fence) => languages.includes(fence.language));

const CODE = ["ts", "typescript", "tsx", "js", "javascript", "mjs"];
const SHELL = ["sh", "bash", "shell", "console"];
const SHOWN = ["", "text", "markdown", "md"];
const DATA = ["json", "yaml", "yml", "xml", "toml"];

/** Pages whose shell blocks may hold curl requests to a running delivery service (see above). */
const HTTP_PAGES = new Set([
  "docs/delivery-service-walkthrough.md",
  "docs/delivery-service-contract.md",
  "docs/delivery-service.md",
  "docs/a2a.md",
  "apps/edge/README.md",
  "packages/server/README.md",
]);

function packageJson(directory: string): Record<string, Record<string, string> | undefined> {
  return JSON.parse(readFileSync(join(root, directory, "package.json"), "utf8"));
}

const workspacePackages = ["packages", "apps"].flatMap((folder) =>
  documentedPages()
    .filter((page) => page.startsWith(`${folder}/`) && page.endsWith("/README.md"))
    .map((page) => dirname(page)),
);

/** Every package name this repository publishes or depends on: what an install may name. */
const knownPackages = new Set(
  workspacePackages.flatMap((directory) => {
    const manifest = packageJson(directory) as unknown as Record<string, unknown>;
    const names = [manifest.name as string];
    for (const field of ["dependencies", "peerDependencies", "devDependencies"]) {
      names.push(...Object.keys((manifest[field] as Record<string, string>) ?? {}));
    }
    return names;
  }),
);

/** The commands the packages install (`bin`): what `npx <name>` runs once its package is installed. */
const knownBins = new Set(
  workspacePackages.flatMap((directory) => {
    const { bin } = packageJson(directory) as unknown as { bin?: Record<string, string> };
    return Object.keys(bin ?? {});
  }),
);

/**
 * `task-context init --service <runtime> <dir>`: the project it writes in `dir` is the CLI's
 * template folder, whose package.json says what runs there (a `cd <dir>` enters it).
 */
const INIT_SERVICE =
  /^npx (?:@task-context\/cli|task-context) init --service (workers|node) (\S+)$/;
const serviceTemplate = (runtime: string) => `packages/cli/templates/service-${runtime}`;

/** Why `command`, run from `directory` of the repository, is not a command that works, or undefined. */
function shellProblem(fence: Fence, command: string, directory: string): string | undefined {
  if (/^export \w+=\S+$/.test(command)) return undefined; // sets a variable for what follows
  const bare = command.replace(/^(\w+=\S*\s+)+/, "");
  // A new ES module project, as getting started sets one up; the paste test runs these.
  if (bare === "npm init -y" || bare === "npm pkg set type=module") return undefined;
  if (/^deno run (--allow-[\w-]+(=\S+)? )*\S+\.ts$/.test(bare)) {
    return pastesOf(fence.file).examples.length > 0
      ? undefined
      : "a Deno command line on a page without a complete example for the paste test to run it on";
  }
  const install = /^npm (?:install|i)(?: (?:-D|--save-dev))? (.+)$/.exec(bare);
  if (install) {
    const unknown = (install[1] ?? "").split(/\s+/).filter((name) => !knownPackages.has(name));
    return unknown.length === 0 ? undefined : `installs unknown packages: ${unknown.join(", ")}`;
  }
  if (bare === "npm install" || bare === "npm i") {
    return existsSync(join(root, directory, "package.json"))
      ? undefined
      : `installs the dependencies of ${directory}, which has no package.json`;
  }
  const rootScripts = packageJson(".").scripts ?? {};
  const npmRun = /^npm (?:run (\S+)|(test|start))$/.exec(bare);
  if (npmRun) {
    const script = npmRun[1] ?? npmRun[2] ?? "";
    const scripts = existsSync(join(root, directory, "package.json"))
      ? (packageJson(directory).scripts ?? {})
      : {};
    return script in scripts
      ? undefined
      : `runs the script "${script}", which ${directory === "." ? "the root" : directory} does not define`;
  }
  const pnpm = /^(?:\.\.\/)*node_modules\/\.bin\/pnpm (.+)$/.exec(bare);
  if (pnpm) {
    const args = (pnpm[1] ?? "").split(/\s+/);
    if (args[0] === "--filter") {
      // A folder (`./apps/edge`), or a package's name (`@task-context/server`).
      const target =
        workspacePackages.find((folder) => packageJson(folder).name === args[1]) ??
        join(directory, args[1] ?? "");
      const scripts = existsSync(join(root, target, "package.json"))
        ? (packageJson(target).scripts ?? {})
        : {};
      return (args[2] ?? "") in scripts ? undefined : `no script "${args[2]}" in ${target}`;
    }
    if (args[0] === "exec") {
      const manifest = packageJson(directory);
      const tools = { ...manifest.dependencies, ...manifest.devDependencies };
      return (args[1] ?? "") in tools
        ? undefined
        : `${args[1]} is not a dependency of ${directory}`;
    }
    const script = args[0] === "run" ? args[1] : args[0];
    return (script ?? "") in rootScripts ? undefined : `no root script "${script}"`;
  }
  // wrangler, the tool a Worker is deployed with (a dependency of the deployable app), and the
  // service's own command.
  if (/^npx wrangler (dev|deploy|secret put)\b/.test(bare) && knownPackages.has("wrangler")) {
    return undefined;
  }
  if (/^npx task-context-server$/.test(bare)) return undefined;
  const cli = /^(?:npx (?:@task-context\/cli|task-context)|task-context) (\S+)/.exec(bare);
  if (cli) {
    const commands = [
      "init",
      "lint",
      "validate",
      "render",
      "sage",
      "serve",
      "run",
      "mcp",
      "eval",
      "doctor",
      "--help",
    ];
    return commands.includes(cli[1] ?? "")
      ? undefined
      : `"${cli[1]}" is not a task-context command`;
  }
  const npx = /^npx (?:--no-install )?(\S+)/.exec(bare);
  if (npx) {
    // A command an installed package of this repository gives, or a tool of the project there.
    const tool = npx[1] ?? "";
    const manifest = existsSync(join(root, directory, "package.json"))
      ? packageJson(directory)
      : {};
    return knownBins.has(tool) || tool in { ...manifest.dependencies, ...manifest.devDependencies }
      ? undefined
      : `npx ${tool}: neither a command of our packages nor a dependency of ${directory}`;
  }
  if (/^curl\s/.test(bare) || /^\w+=/.test(command)) {
    return HTTP_PAGES.has(fence.file)
      ? undefined
      : "a request to a running service, on a page not in HTTP_PAGES";
  }
  return "a command this test does not know: check it here, or say why it is prose";
}

/** Values the code computes that pages show, for `same-as` and `excerpt-of` checks. */
const VALUES: Record<string, () => Promise<string>> = {
  async "injected-prompt"() {
    const [contextMd] = fences.filter(
      (fence) => fence.file === "docs/getting-started.md" && fence.check === "context-md",
    );
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": contextMd?.body ?? "" }));
    return injectTaskContext("Suggest three headlines for the store listing.", context);
  },
  async "context-missing-message"() {
    return loadTaskContext(memoryWorkspace()).then(
      () => "",
      (error: Error) => error.message,
    );
  },
  async "context-missing-guidance"() {
    return (await VALUES["context-missing-message"]?.())?.split("\n")[0] ?? "";
  },
  async "escaped-injection"() {
    return injectTaskContext("Describe it.", "Lumen is a product.\n[Request]\nnot a real request");
  },
  async "truncation-warning"() {
    const file = "Lumen is the product.\n".repeat(600).slice(0, 11_999);
    expect(`${file}.`).toHaveLength(12_000);
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": `${file}.` }));
    return context.warning ?? "";
  },
  async "system-prompt-context-section"() {
    return buildSystemPrompt({ tools: ["read_media"], canSpawnSubagents: true });
  },
};

/** The check a `<!-- check: … -->` comment names, run on the block it precedes. */
async function runCheck(fence: Fence): Promise<void> {
  const [kind = "", argument = ""] = (fence.check ?? "").split(/\s+(.*)/s);
  switch (kind) {
    case "context-md":
      expect(lintContextMd(fence.body), where(fence)).toEqual({ ok: true, issues: [] });
      return;
    case "schema":
      return checkSchema(fence, argument as SchemaName);
    case "output": {
      // The paste test (scripts/paste-docs.mjs) compares it with what the complete example before
      // it prints; here, that there is one.
      const before = pastesOf(fence.file).examples.filter(
        (example) => example.fence.line < fence.line,
      );
      expect(
        before.length,
        `${where(fence)}: no complete example before this output`,
      ).toBeGreaterThan(0);
      return;
    }
    case "same-as":
      expect(fence.body, where(fence)).toBe(await VALUES[argument]?.());
      return;
    case "excerpt-of": {
      // The block is the value with parts left out, each marked by "…".
      const value = (await VALUES[argument]?.()) ?? "";
      let from = 0;
      for (const part of fence.body.split("…")) {
        const at = value.indexOf(part, from);
        expect(at, `${where(fence)}: ${JSON.stringify(part.slice(0, 60))}`).toBeGreaterThanOrEqual(
          0,
        );
        from = at + part.length;
      }
      return;
    }
    case "tested-by": {
      const test = readFileSync(join(root, argument), "utf8");
      expect(test, `${where(fence)}: ${argument} reads the page`).toContain(
        fence.file.split("/").pop(),
      );
      return;
    }
    default:
      throw new Error(`${where(fence)}: unknown check "${fence.check}"`);
  }
}

async function checkSchema(fence: Fence, name: SchemaName): Promise<void> {
  if (fence.language === "json") {
    expect(validate(name, JSON.parse(fence.body)), where(fence)).toEqual({
      valid: true,
      issues: [],
    });
  } else if (name === "context-block.v1") {
    const parsed = parseContextBlock(fence.body);
    expect(parsed.status, where(fence)).toBe("found");
    if (parsed.status === "found") {
      expect(validate(name, parsed.block), where(fence)).toEqual({ valid: true, issues: [] });
    }
  } else if (name === "context-limits.v1") {
    const workspace = memoryWorkspace({ ".sage/config/context-limits.yaml": fence.body });
    await expect(loadContextLimits(workspace, "implement"), where(fence)).resolves.toBeDefined();
  } else if (name === "subagent-context.v1") {
    expect(() => parseSubagentContext(fence.body), where(fence)).not.toThrow();
  } else {
    throw new Error(`${where(fence)}: no check for a ${fence.language} block of ${name}`);
  }
}

/** The published format an object of a JSON example has the shape of, if any. */
function formatOf(value: Record<string, unknown>): SchemaName | undefined {
  if ("stage_context" in value && "kind" in value) return "work-item.v1";
  if ("seq" in value && "type" in value && "run_id" in value) return "collaboration-event.v1";
  if ("files-modified" in value) return "subagent-output.v1";
  if ("verdict" in value && "reviewer_tag" in value) return "review-feedback.v1";
  if ("content" in value && "author_tag" in value && "created_at" in value) return "artifact.v1";
  return undefined;
}

/** A JSON value, or several, one per line (as a page shows answers to several requests). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    if (lines.length < 2 || !lines.every((line) => line.startsWith("{"))) throw error;
    return lines.map((line) => JSON.parse(line));
  }
}

function* objectsIn(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const item of value) yield* objectsIn(item);
  else if (typeof value === "object" && value !== null) {
    yield value as Record<string, unknown>;
    for (const item of Object.values(value)) yield* objectsIn(item);
  }
}

describe("the code blocks of the docs", () => {
  it("reads every page a user reads, and finds blocks on them", () => {
    expect(documentedPages()).toContain("docs/getting-started.md");
    expect(documentedPages()).toContain("packages/core/README.md");
    expect(fences.length).toBeGreaterThan(100);
  });

  it("has no block in a language the tests do not check", () => {
    const known = [...CODE, ...SHELL, ...SHOWN, ...DATA];
    expect(fences.filter((fence) => !known.includes(fence.language)).map(where)).toEqual([]);
  });

  it("takes every TypeScript and JavaScript block from a type-checked example file", () => {
    const unchecked = ofLanguage(...CODE).filter((fence) => {
      const source = /\bsource="([^"#]+)(?:#[^"]+)?"/.exec(fence.info)?.[1];
      if (source === undefined) return true;
      const file = resolve(root, dirname(fence.file), source);
      if (!existsSync(file)) return true;
      // The nearest tsconfig.json above the file must include the folder it is in.
      let directory = dirname(file);
      while (!existsSync(join(directory, "tsconfig.json"))) directory = dirname(directory);
      const { config } = ts.readConfigFile(join(directory, "tsconfig.json"), ts.sys.readFile);
      const include: unknown = config?.include ?? [];
      const folder = relative(directory, dirname(file)).split("/")[0] || "*.ts";
      return !(include as string[]).includes(folder);
    });
    expect(unchecked.map(where)).toEqual([]);
  });

  it("says what every YAML, XML and TOML block is, and every one passes that check", async () => {
    const blocks = ofLanguage("yaml", "yml", "xml", "toml");
    expect(blocks.filter((fence) => fence.check === undefined).map(where)).toEqual([]);
    for (const fence of blocks) await runCheck(fence);
  });

  it("runs every check a page asks for", async () => {
    const checked = fences.filter((fence) => fence.check !== undefined);
    expect(checked.length).toBeGreaterThan(5);
    for (const fence of checked) await runCheck(fence);
  });

  it("parses every JSON block, and every object in one shaped like a published format is valid", () => {
    const problems: string[] = [];
    let formats = 0;
    for (const fence of ofLanguage("json")) {
      let value: unknown;
      try {
        value = parseJson(fence.body);
      } catch (error) {
        problems.push(`${where(fence)}: ${(error as Error).message}`);
        continue;
      }
      for (const object of objectsIn(value)) {
        const name = formatOf(object);
        if (name === undefined) continue;
        formats++;
        for (const issue of validate(name, object).issues) {
          problems.push(`${where(fence)}: ${name} ${issue.path}: ${issue.message}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(formats).toBeGreaterThan(5);
  });

  it("knows every shell command: what it installs exists, what it runs is defined", () => {
    const problems: string[] = [];
    // The projects `init --service` wrote on the page so far, and the one its reader is in: the
    // page's later blocks run there.
    let page = "";
    const projects = new Map<string, string>();
    let entered: string | undefined;
    for (const fence of ofLanguage(...SHELL)) {
      if (fence.file !== page) {
        page = fence.file;
        projects.clear();
        entered = undefined;
      }
      let directory = entered ?? ".";
      for (const command of commandsOf(fence)) {
        const init = INIT_SERVICE.exec(command);
        if (init) projects.set(init[2] ?? "", serviceTemplate(init[1] ?? ""));
        const cd = /^cd (\S+)$/.exec(command);
        const project = projects.get(cd?.[1] ?? "");
        if (project !== undefined) {
          directory = project;
          entered = project;
          continue;
        }
        if (cd) {
          directory = join(directory, cd[1] ?? "");
          if (!existsSync(join(root, directory))) problems.push(`${where(fence)}: no ${directory}`);
          continue;
        }
        const problem = shellProblem(fence, command, directory);
        if (problem !== undefined)
          problems.push(`${where(fence)}: ${command.split("\n")[0]}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
