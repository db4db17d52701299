import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  FileNotFoundError,
  memoryWorkspace,
  TaskContextError,
  type Workspace,
} from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextPathOutsideProjectError } from "../errors/context-path-outside-project-error.ts";
import type { ContextBlock } from "../schemas/context-block.ts";
import { readFullConventions } from "./read-full-conventions.ts";
import { renderContextBlock } from "./render-context-block.ts";
import { resolveContextBlock } from "./resolve-context-block.ts";

const BLOCK: ContextBlock = {
  version: 1,
  project: {
    path: "/Users/dev/code/project",
    stack: "nextjs-prisma",
    commands: { test: "npm test", lint: "npm run lint" },
  },
  conventions: {
    summary: "TypeScript strict. Prisma ORM.\n",
    fullPath: "/Users/dev/code/project/docs/CONVENTIONS.md",
  },
  currentWork: { story: "US-003 Add print preview modal" },
};

const PROJECT_JSON = JSON.stringify({
  name: "project",
  stack: "nextjs-prisma",
  commands: { dev: "npm run dev", test: "npm test" },
  deploy: { target: "vercel" },
});
const CONVENTIONS = "# Conventions\n\nTypeScript strict mode. Zod for validation.\n";

/** A workspace that fails the test if anything is read. */
const untouchable: Workspace = {
  description: "untouchable workspace",
  readFile: () => {
    throw new Error("the workspace must not be read when the block is used");
  },
  writeFile: () => {
    throw new Error("the workspace must not be written");
  },
};

/** Records the paths read from a workspace. */
function recording(workspace: Workspace): { workspace: Workspace; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    workspace: {
      description: workspace.description,
      readFile: (path, options) => {
        reads.push(`${path} (max ${options?.maxBytes})`);
        return workspace.readFile(path, options);
      },
      writeFile: (path, data) => workspace.writeFile(path, data),
    },
  };
}

describe("resolveContextBlock", () => {
  it("uses a found block and reads no file", async () => {
    const prompt = `${renderContextBlock(BLOCK)}\n\nImplement US-003.`;
    expect(await resolveContextBlock(prompt, untouchable)).toEqual({
      source: "block",
      status: "found",
      block: BLOCK,
      project: {
        path: "/Users/dev/code/project",
        stack: "nextjs-prisma",
        commands: { test: "npm test", lint: "npm run lint" },
        name: undefined,
      },
      conventions: {
        text: "TypeScript strict. Prisma ORM.\n",
        fullPath: "/Users/dev/code/project/docs/CONVENTIONS.md",
        truncated: false,
      },
      currentWork: { story: "US-003 Add print preview modal" },
      projectJson: undefined,
      request: "Implement US-003.",
      issues: [],
    });
  });

  it("reads docs/project.json and docs/CONVENTIONS.md, bounded, when there is no block", async () => {
    const { workspace, reads } = recording(
      memoryWorkspace({ "docs/project.json": PROJECT_JSON, "docs/CONVENTIONS.md": CONVENTIONS }),
    );
    expect(await resolveContextBlock("Implement US-003.", workspace)).toEqual({
      source: "files",
      status: "missing",
      block: undefined,
      project: {
        path: undefined,
        stack: "nextjs-prisma",
        commands: { dev: "npm run dev", test: "npm test" },
        name: "project",
      },
      conventions: { text: CONVENTIONS, fullPath: undefined, truncated: false },
      currentWork: undefined,
      projectJson: {
        name: "project",
        stack: "nextjs-prisma",
        commands: { dev: "npm run dev", test: "npm test" },
        deploy: { target: "vercel" },
      },
      request: "Implement US-003.",
      issues: [],
    });
    expect(reads.sort()).toEqual([
      "docs/CONVENTIONS.md (max 65536)",
      "docs/project.json (max 65536)",
    ]);
  });

  it("falls back to the files for an unsupported version and says why", async () => {
    const workspace = memoryWorkspace({
      "docs/project.json": PROJECT_JSON,
      "docs/CONVENTIONS.md": CONVENTIONS,
    });
    const result = await resolveContextBlock(
      "<context>\nversion: 2\nproject: {}\n</context>\n\nGo.",
      workspace,
    );
    expect(result.source).toBe("files");
    expect(result.status).toBe("unsupported-version");
    expect(result.request).toBe("Go.");
    expect(result.project.stack).toBe("nextjs-prisma");
    expect(result.issues).toEqual([
      {
        path: "/version",
        message:
          'Context Protocol version 2 is not supported (this receiver understands version 1), so the block is ignored and the project files are read instead. Send "version: 1" to be understood.',
        line: 2,
      },
    ]);
    expect(result.warning).toBe(
      "The <context> block has an unsupported version, so it was ignored and docs/project.json and docs/CONVENTIONS.md were read instead.",
    );
  });

  it("falls back to the files for an invalid block and keeps its issues", async () => {
    const workspace = memoryWorkspace({
      "docs/project.json": PROJECT_JSON,
      "docs/CONVENTIONS.md": CONVENTIONS,
    });
    const result = await resolveContextBlock(
      "<context>\nproject:\n  path: /x\n  stack: y\n</context>\nGo.",
      workspace,
    );
    expect(result.source).toBe("files");
    expect(result.status).toBe("invalid");
    expect(result.conventions.text).toBe(CONVENTIONS);
    expect(result.issues.map((issue) => issue.path)).toEqual(["/conventions"]);
    expect(result.warning).toBe(
      "The <context> block is invalid (see issues), so it was ignored and docs/project.json and docs/CONVENTIONS.md were read instead.",
    );
  });

  it("turns missing files into warnings instead of failing", async () => {
    const result = await resolveContextBlock("Go.", memoryWorkspace());
    expect(result.source).toBe("files");
    expect(result.project).toEqual({
      path: undefined,
      stack: undefined,
      commands: {},
      name: undefined,
    });
    expect(result.conventions).toEqual({ text: undefined, fullPath: undefined, truncated: false });
    expect(result.issues).toEqual([]);
    expect(result.warning).toBe(
      "docs/project.json was not found in the workspace, so the project's stack and commands are unknown. Create docs/project.json, or have the sender put a <context> block at the start of the prompt. docs/CONVENTIONS.md was not found in the workspace, so no conventions are known. Create docs/CONVENTIONS.md, or have the sender put a <context> block at the start of the prompt.",
    );
  });

  it("reads other file names when told to", async () => {
    const workspace = memoryWorkspace({
      "project.json": '{"stack": "hono"}',
      "CONVENTIONS.md": "Be brief.",
    });
    const result = await resolveContextBlock("Go.", workspace, {
      projectJsonPath: "project.json",
      conventionsPath: "CONVENTIONS.md",
    });
    expect(result.project.stack).toBe("hono");
    expect(result.conventions.text).toBe("Be brief.");
    expect(result).not.toHaveProperty("warning");
  });

  it("reports malformed JSON with its line", async () => {
    const workspace = memoryWorkspace({
      "docs/project.json": '{\n  "stack": "hono",\n  "commands": {,}\n}',
      "docs/CONVENTIONS.md": CONVENTIONS,
    });
    const result = await resolveContextBlock("Go.", workspace);
    expect(result.project.stack).toBe(undefined);
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]?.file).toBe("docs/project.json");
    expect(result.issues[0]?.path).toBe("");
    expect(result.issues[0]?.line).toBe(3);
    expect(result.issues[0]?.message).toMatch(
      /^docs\/project\.json is not valid JSON \(.+\)\. Fix the syntax\.$/,
    );
  });

  it("reports fields of the wrong type and keeps the rest", async () => {
    const workspace = memoryWorkspace({
      "docs/project.json": JSON.stringify({
        stack: ["next"],
        name: 3,
        commands: { test: "vitest", build: 1 },
      }),
    });
    const result = await resolveContextBlock("Go.", workspace);
    expect(result.project).toEqual({
      path: undefined,
      stack: undefined,
      commands: { test: "vitest" },
      name: undefined,
    });
    expect(result.issues).toEqual([
      {
        path: "/name",
        message:
          'docs/project.json: name must be a string, not the number 3. Quote it to make it a string: "3". It was ignored.',
        file: "docs/project.json",
      },
      {
        path: "/stack",
        message: "docs/project.json: stack must be a string, not an array. It was ignored.",
        file: "docs/project.json",
      },
      {
        path: "/commands/build",
        message:
          'docs/project.json: commands.build must be a string, not the number 1. Quote it to make it a string: "1". It was ignored.',
        file: "docs/project.json",
      },
    ]);
  });

  it("ignores a __proto__ command in project.json without polluting any prototype", async () => {
    const workspace = memoryWorkspace({
      "docs/project.json": '{"commands": {"__proto__": {"polluted": "yes"}, "test": "vitest"}}',
    });
    const result = await resolveContextBlock("Go.", workspace);
    expect(result.project.commands).toEqual({ test: "vitest" });
    expect(Object.getPrototypeOf(result.project.commands)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBe(undefined);
    expect(result.issues).toEqual([
      {
        path: "/commands/__proto__",
        message:
          'docs/project.json: commands may not have a key named "__proto__" (it would replace the prototype of objects it is copied into). Rename it. It was ignored.',
        file: "docs/project.json",
      },
    ]);
  });

  it("returns project.json without its __proto__ keys, naming the file once in each issue", async () => {
    const workspace = memoryWorkspace({
      "docs/project.json": JSON.stringify({ stack: "hono", name: 1 }).replace(
        "{",
        '{"__proto__": {"polluted": "yes"}, "commands": {"__proto__": "x", "test": "vitest"}, "deploy": {"settings": {"__proto__": {"admin": true}}}, ',
      ),
    });
    const result = await resolveContextBlock("Go.", workspace);
    expect(result.projectJson).toEqual({
      commands: { test: "vitest" },
      deploy: { settings: {} },
      stack: "hono",
      name: 1,
    });
    const { projectJson = {} } = result;
    const settings = (projectJson.deploy as { settings: object }).settings;
    for (const object of [projectJson, projectJson.commands as object, settings]) {
      expect(Object.hasOwn(object, "__proto__")).toBe(false);
    }
    const merged = Object.assign({}, projectJson, { deploy: Object.assign({}, settings) });
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(merged.deploy)).toBe(Object.prototype);
    const ignored =
      'may not have a key named "__proto__" (it would replace the prototype of objects it is copied into). Rename it. It was ignored.';
    expect(result.issues).toEqual([
      {
        path: "/name",
        message:
          'docs/project.json: name must be a string, not the number 1. Quote it to make it a string: "1". It was ignored.',
        file: "docs/project.json",
      },
      { path: "/__proto__", message: `docs/project.json ${ignored}`, file: "docs/project.json" },
      {
        path: "/commands/__proto__",
        message: `docs/project.json: commands ${ignored}`,
        file: "docs/project.json",
      },
      {
        path: "/deploy/settings/__proto__",
        message: `docs/project.json: deploy.settings ${ignored}`,
        file: "docs/project.json",
      },
    ]);
  });

  it("warns that a file could not be read for a workspace error with the code of a missing file that is not a FileNotFoundError", async () => {
    const workspace: Workspace = {
      description: "custom",
      readFile: async () => {
        throw new TaskContextError({ code: "FILE_NOT_FOUND", message: "Custom lookup failed." });
      },
      writeFile: async () => undefined,
    };
    const result = await resolveContextBlock("Go.", workspace);
    expect(result.warning).toBe(
      "docs/project.json could not be read, so the project's stack and commands are unknown: Custom lookup failed. docs/CONVENTIONS.md could not be read, so no conventions are known: Custom lookup failed.",
    );
  });

  it("reports project.json that is not an object", async () => {
    const result = await resolveContextBlock(
      "Go.",
      memoryWorkspace({ "docs/project.json": "[1]" }),
    );
    expect(result.issues[0]).toEqual({
      path: "",
      message:
        "docs/project.json must be an object with, optionally, name, stack and commands, not an array. The file was ignored.",
      file: "docs/project.json",
    });
  });

  it("does not parse a project.json over the limit", async () => {
    const big = JSON.stringify({ stack: "x", padding: "p".repeat(200) });
    const result = await resolveContextBlock("Go.", memoryWorkspace({ "docs/project.json": big }), {
      maxFileBytes: 100,
    });
    expect(result.project.stack).toBe(undefined);
    expect(result.issues[0]?.message).toBe(
      `docs/project.json is ${big.length} bytes, over the 100-byte limit, so it was not parsed. Keep it to the project's stack, commands and a few settings.`,
    );
  });

  it("cuts CONVENTIONS.md at the limit without splitting a character, and warns", async () => {
    const text = `${"a".repeat(9)}é and more`;
    const result = await resolveContextBlock(
      "Go.",
      memoryWorkspace({ "docs/CONVENTIONS.md": text }),
      {
        maxFileBytes: 10,
      },
    );
    expect(result.conventions).toEqual({
      text: "a".repeat(9),
      fullPath: undefined,
      truncated: true,
    });
    expect(result.warning).toContain(
      "docs/CONVENTIONS.md was truncated from 20 to 10 bytes (limit 10). Keep it shorter, or raise maxFileBytes.",
    );
  });

  it("strips a byte order mark and reports invalid UTF-8", async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x41, 0xff, 0x42]);
    const result = await resolveContextBlock(
      "Go.",
      memoryWorkspace({ "docs/CONVENTIONS.md": bytes }),
    );
    expect(result.conventions.text).toBe("A\ufffdB");
    expect(result.warning).toContain(
      "docs/CONVENTIONS.md is not valid UTF-8; invalid bytes were replaced with U+FFFD.",
    );
  });

  it("treats an empty CONVENTIONS.md as no conventions", async () => {
    const result = await resolveContextBlock(
      "Go.",
      memoryWorkspace({ "docs/CONVENTIONS.md": " \n" }),
    );
    expect(result.conventions.text).toBe(undefined);
    expect(result.warning).toContain("docs/CONVENTIONS.md is empty; no conventions are known.");
  });

  it("warns when a fallback path is a directory", async () => {
    const result = await resolveContextBlock(
      "Go.",
      memoryWorkspace({ "docs/project.json/inner.txt": "x" }),
    );
    expect(result.warning).toMatch(
      /^docs\/project\.json could not be read, so the project's stack and commands are unknown: Refused "docs\/project\.json": it is a directory, not a regular file\. Workspaces read and write regular files only and do not follow symbolic links\. docs\/CONVENTIONS\.md was not found/,
    );
  });

  it("lets errors that are not the workspace's own propagate", async () => {
    const broken: Workspace = {
      description: "broken",
      readFile: async () => {
        throw new Error("EIO: disk on fire");
      },
      writeFile: async () => undefined,
    };
    await expect(resolveContextBlock("Go.", broken)).rejects.toThrow("EIO: disk on fire");
  });

  describe("on a directory", () => {
    let root: string;
    beforeEach(async () => {
      root = await mkdtemp(join(tmpdir(), "context-block-"));
    });
    afterEach(async () => {
      await rm(root, { recursive: true, force: true });
    });

    it("reads the fallback files through nodeWorkspace", async () => {
      await mkdir(join(root, "docs"));
      await writeFile(join(root, "docs", "project.json"), PROJECT_JSON);
      await writeFile(join(root, "docs", "CONVENTIONS.md"), CONVENTIONS);
      const result = await resolveContextBlock("Go.", nodeWorkspace(root));
      expect(result.source).toBe("files");
      expect(result.project.stack).toBe("nextjs-prisma");
      expect(result.conventions.text).toBe(CONVENTIONS);
      expect(result).not.toHaveProperty("warning");
    });

    it("refuses a fallback file that is a symbolic link out of the workspace", async () => {
      const outside = await mkdtemp(join(tmpdir(), "context-block-outside-"));
      try {
        await writeFile(join(outside, "secret.json"), '{"stack": "secret"}');
        await mkdir(join(root, "docs"));
        await symlink(join(outside, "secret.json"), join(root, "docs", "project.json"));
        const result = await resolveContextBlock("Go.", nodeWorkspace(root));
        expect(result.project.stack).toBe(undefined);
        expect(result.warning).toMatch(
          /^docs\/project\.json could not be read, so the project's stack and commands are unknown: Refused "docs\/project\.json"/,
        );
      } finally {
        await rm(outside, { recursive: true, force: true });
      }
    });

    it("reads conventions.fullPath on request, mapped into the workspace", async () => {
      await mkdir(join(root, "docs"));
      await writeFile(join(root, "docs", "CONVENTIONS.md"), CONVENTIONS);
      const block = { ...BLOCK, project: { ...BLOCK.project, path: root } };
      block.conventions = { ...BLOCK.conventions, fullPath: join(root, "docs", "CONVENTIONS.md") };
      expect(await readFullConventions(block, nodeWorkspace(root))).toEqual({
        path: "docs/CONVENTIONS.md",
        text: CONVENTIONS,
        size: CONVENTIONS.length,
        truncated: false,
      });
    });
  });
});

describe("readFullConventions", () => {
  const workspace = memoryWorkspace({
    "docs/CONVENTIONS.md": CONVENTIONS,
    "CONVENTIONS.md": "root conventions",
  });
  const withFullPath = (fullPath: string | undefined, path = "/Users/dev/code/project") => {
    const conventions: ContextBlock["conventions"] = { summary: "s" };
    if (fullPath !== undefined) conventions.fullPath = fullPath;
    return { project: { path, stack: "s" }, conventions };
  };

  it.each([
    ["/Users/dev/code/project/docs/CONVENTIONS.md", "docs/CONVENTIONS.md"],
    ["/Users/dev/code/project/./docs//CONVENTIONS.md", "docs/CONVENTIONS.md"],
    ["/Users/dev/code/project/docs/../CONVENTIONS.md", "CONVENTIONS.md"],
    ["docs/CONVENTIONS.md", "docs/CONVENTIONS.md"],
    [undefined, "docs/CONVENTIONS.md"],
  ])("maps fullPath %j to the workspace path %j", async (fullPath, path) => {
    const result = await readFullConventions(withFullPath(fullPath), workspace);
    expect(result.path).toBe(path);
  });

  it("maps Windows paths, ignoring case", async () => {
    const result = await readFullConventions(
      withFullPath("c:\\users\\dev\\Project\\docs\\CONVENTIONS.md", "C:\\Users\\dev\\project"),
      workspace,
    );
    expect(result.path).toBe("docs/CONVENTIONS.md");
    expect(result.text).toBe(CONVENTIONS);
  });

  it.each([
    ["/etc/passwd"],
    ["/Users/dev/code/project-other/docs/CONVENTIONS.md"],
    ["/Users/dev/code/project/../secrets.md"],
    ["../outside.md"],
    ["C:\\Users\\dev\\code\\project\\docs\\CONVENTIONS.md"],
  ])("refuses fullPath %j outside the project", async (fullPath) => {
    await expect(readFullConventions(withFullPath(fullPath), untouchable)).rejects.toThrow(
      ContextPathOutsideProjectError,
    );
  });

  it("says which path was refused and where to point it", async () => {
    await expect(
      readFullConventions(withFullPath("/etc/passwd"), untouchable),
    ).rejects.toMatchObject({
      name: "ContextPathOutsideProjectError",
      code: "CONTEXT_PATH_OUTSIDE_PROJECT",
      message:
        'Refused conventions.fullPath "/etc/passwd": it is outside the project root "/Users/dev/code/project", and only files inside the project (the workspace) are read. Point conventions.fullPath at a file under project.path, such as "/Users/dev/code/project/docs/CONVENTIONS.md".',
    });
  });

  it("cuts a long file at maxBytes with a warning", async () => {
    const result = await readFullConventions(withFullPath(undefined), workspace, { maxBytes: 13 });
    expect(result).toEqual({
      path: "docs/CONVENTIONS.md",
      text: "# Conventions",
      size: CONVENTIONS.length,
      truncated: true,
      warning: `docs/CONVENTIONS.md was truncated from ${CONVENTIONS.length} to 13 bytes (limit 13). The rest was not read.`,
    });
  });

  it("passes on the workspace's error for a missing file", async () => {
    await expect(readFullConventions(withFullPath(undefined), memoryWorkspace())).rejects.toThrow(
      FileNotFoundError,
    );
  });
});
