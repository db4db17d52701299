import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryWorkspace, type Workspace } from "@task-context/core";
import { parseWorkspacePath } from "@task-context/core/internal";
import { nodeWorkspace } from "@task-context/core/node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

// Layout of every test (a fresh temporary directory each time):
//
//   tmp/secret.txt            TOP_SECRET   ← "../../secret.txt" from the root
//   tmp/outside/secret.txt    SECRET       ← "../secret.txt" from the root
//   tmp/outside/root/         the workspace root: CONTEXT.md, x, docs/a.md
//
// Path templates may use {OUT} (the absolute path of tmp/outside) and {OUT_REL} (the same without
// its leading "/"), so that an implementation that resolved them naively would land on the secret,
// never on a system file: writes are tried with every variant.

const SECRET = "SECRET: outside the workspace root\n";
const TOP_SECRET = "TOP SECRET: two levels above the workspace root\n";
const decoder = new TextDecoder();

let tmp: string;
let outside: string;
let root: string;
let disk: Workspace;
let memory: Workspace;

const initialFiles: Record<string, string> = {
  "CONTEXT.md": "inside: CONTEXT.md\n",
  x: "inside: x\n",
  "docs/a.md": "inside: docs/a.md\n",
};

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), "task-context-paths-"));
  outside = join(tmp, "outside");
  root = join(outside, "root");
  await mkdir(join(root, "docs"), { recursive: true });
  await writeFile(join(tmp, "secret.txt"), TOP_SECRET);
  await writeFile(join(outside, "secret.txt"), SECRET);
  for (const [path, text] of Object.entries(initialFiles)) await writeFile(join(root, path), text);
  disk = nodeWorkspace(root);
  memory = memoryWorkspace(initialFiles);
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Replaces {OUT} and {OUT_REL} in a path template. */
function fill(template: string): string {
  return template.replaceAll("{OUT_REL}", outside.slice(1)).replaceAll("{OUT}", outside);
}

/** Every entry under `dir` (type, inode, content), without descending into `skip`. */
async function snapshot(dir: string, skip: string): Promise<Record<string, string>> {
  const entries: Record<string, string> = {};
  const walk = async (current: string) => {
    for (const name of (await readdir(current)).sort()) {
      const path = join(current, name);
      if (path === skip) continue;
      const info = await lstat(path);
      const key = path.slice(dir.length);
      if (info.isDirectory()) {
        entries[key] = `directory ${info.ino}`;
        await walk(path);
      } else if (info.isFile()) {
        entries[key] = `file ${info.ino} ${JSON.stringify(await readFile(path, "utf8"))}`;
      } else {
        entries[key] = `other ${info.ino} mode ${info.mode}`;
      }
    }
  };
  await walk(dir);
  return entries;
}

async function expectSecretsIntact() {
  expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe(SECRET);
  expect(await readFile(join(tmp, "secret.txt"), "utf8")).toBe(TOP_SECRET);
}

interface Variant {
  name: string;
  path: string;
}

/** Refused by the path rules before any storage is touched: INVALID_WORKSPACE_PATH. */
const refused: Variant[] = [
  { name: "the empty string", path: "" },
  { name: "a lone dot", path: "." },
  { name: "a lone slash", path: "/" },
  { name: "dot-slash only", path: "./" },
  { name: "dots and slashes only", path: ".//./" },
  { name: "a lone dot-dot", path: ".." },
  { name: "dot-dot with a trailing slash", path: "../" },
  { name: "dot-dot then a file", path: "../secret.txt" },
  { name: "two dot-dots", path: "../../secret.txt" },
  { name: "dot-dot then a name that exists inside", path: "../root/x" },
  { name: "a name then two dot-dots", path: "a/../../secret.txt" },
  { name: "dot-slash then dot-dot", path: "./../secret.txt" },
  { name: "a dot segment between name and dot-dot", path: "a/./../../secret.txt" },
  { name: "an existing directory then two dot-dots", path: "docs/../../secret.txt" },
  { name: "a directory then dot-dot (stays inside, still refused)", path: "docs/.." },
  { name: "dot-dot that stays inside (still refused)", path: "docs/../CONTEXT.md" },
  { name: "dot-dot followed by an empty segment", path: "..//secret.txt" },
  { name: "dot-dot, dot, file", path: ".././secret.txt" },
  { name: "a trailing dot-dot after a file", path: "CONTEXT.md/.." },
  { name: "five names then six dot-dots", path: "a/b/c/d/e/../../../../../../secret.txt" },
  { name: "a chain of 64 dot-dots to the secret", path: `${"../".repeat(64)}{OUT_REL}/secret.txt` },
  {
    name: "200 names then 201 dot-dots",
    path: `${"a/".repeat(200)}${"../".repeat(201)}secret.txt`,
  },
  { name: "1000 alternating name/dot-dot pairs", path: `${"a/../".repeat(1000)}../secret.txt` },
  { name: "an absolute path to the secret", path: "{OUT}/secret.txt" },
  { name: "a double-slash absolute path", path: "/{OUT}/secret.txt" },
  { name: "an absolute path with a dot segment", path: "{OUT}/./secret.txt" },
  { name: "an absolute path with a trailing slash", path: "{OUT}/" },
  { name: "a Windows drive path with a backslash", path: "C:\\x" },
  { name: "a Windows drive path with a slash", path: "C:/x" },
  { name: "a lowercase drive-relative path", path: "c:secret.txt" },
  { name: "a bare drive letter", path: "Z:" },
  { name: "dot-dot with a backslash", path: "..\\secret.txt" },
  { name: "a name and dot-dots with backslashes", path: "a\\..\\..\\secret.txt" },
  { name: "dot, dot-dot with backslashes", path: ".\\..\\secret.txt" },
  { name: "mixed backslash and slash", path: "..\\/secret.txt" },
  { name: "a backslash-rooted path", path: "\\secret.txt" },
  { name: "a UNC path", path: "\\\\server\\share\\secret.txt" },
  { name: "a Windows extended-length path", path: "\\\\?\\C:\\secret.txt" },
  { name: "a backslash in an otherwise plain name", path: "docs\\a.md" },
  { name: "a NUL byte before an extension", path: "CONTEXT.md\0.png" },
  { name: "a lone NUL byte", path: "\0" },
  { name: "a trailing NUL byte", path: "docs/a.md\0" },
  { name: "a NUL byte after dot-dot", path: "../secret.txt\0.md" },
];

/** Not special in any way: a literal name inside the root that does not exist there. */
const literal: Variant[] = [
  { name: "URL-encoded dot-dot", path: "%2e%2e/secret.txt" },
  { name: "URL-encoded dot-dot in upper case", path: "%2E%2E/secret.txt" },
  { name: "URL-encoded dot-dot and slash", path: "%2e%2e%2fsecret.txt" },
  { name: "dot-dot with an encoded slash", path: "..%2fsecret.txt" },
  { name: "dot-dot with an encoded backslash", path: "..%5csecret.txt" },
  { name: "URL-encoded dot-dot and backslash", path: "%2e%2e%5csecret.txt" },
  { name: "an encoded absolute path", path: "%2f{OUT_REL}%2fsecret.txt" },
  { name: "double-encoded dot-dot", path: "%252e%252e/secret.txt" },
  { name: "double-encoded dot-dot and slash", path: "%252e%252e%252fsecret.txt" },
  { name: "overlong UTF-8 dots", path: "%c0%ae%c0%ae/secret.txt" },
  { name: "overlong UTF-8 dots and slash", path: "%c0%ae%c0%ae%c0%afsecret.txt" },
  { name: "IIS %u-encoded fullwidth dots", path: "%uff0e%uff0e/secret.txt" },
  { name: "an encoded NUL byte", path: "..%00/secret.txt" },
  { name: "fullwidth full stops", path: "\uFF0E\uFF0E/secret.txt" },
  { name: "fullwidth full stops and solidus", path: "\uFF0E\uFF0E\uFF0Fsecret.txt" },
  { name: "a two-dot leader", path: "\u2025/secret.txt" },
  { name: "two one-dot leaders", path: "\u2024\u2024/secret.txt" },
  { name: "a horizontal ellipsis", path: "\u2026/secret.txt" },
  { name: "ideographic full stops", path: "\u3002\u3002/secret.txt" },
  { name: "small full stops", path: "\uFE52\uFE52/secret.txt" },
  { name: "dot-dot and a division slash", path: "..\u2215secret.txt" },
  { name: "dot-dot and a fraction slash", path: "..\u2044secret.txt" },
  { name: "dot-dot behind a zero-width space", path: "\u200B../secret.txt" },
  { name: "dot-dot with a zero-width joiner", path: ".\u200D./secret.txt" },
  { name: "dot-dot with a combining mark", path: "..\u0338/secret.txt" },
  { name: "four dots and a double slash", path: "....//secret.txt" },
  { name: "three dots", path: ".../secret.txt" },
  { name: "dot-dot with a trailing space", path: ".. /secret.txt" },
  { name: "dot-dot with a leading space", path: " ../secret.txt" },
  { name: "dot-dot with a tab", path: "..\t/secret.txt" },
  { name: "dot-dot-semicolon (Tomcat)", path: "..;/secret.txt" },
  { name: "a tilde home directory", path: "~/secret.txt" },
  { name: "a tilde user home directory", path: "~root/secret.txt" },
  { name: "a shell variable", path: "$HOME/secret.txt" },
  { name: "a file URL", path: "file:///secret.txt" },
  { name: "a name with a trailing slash", path: "secret.txt/" },
];

/** Absolute system files: read only (a broken implementation must not be able to overwrite them). */
const systemFiles: Variant[] = [
  { name: "/etc/passwd", path: "/etc/passwd" },
  { name: "//etc/passwd", path: "//etc/passwd" },
  { name: "dot-dots up to /etc/passwd", path: `${"../".repeat(40)}etc/passwd` },
  { name: "/proc/self/environ", path: "/proc/self/environ" },
  { name: "/dev/zero", path: "/dev/zero" },
  { name: "\\etc\\passwd", path: "\\etc\\passwd" },
];

/** The segments a literal path names: split on "/", without empty and "." segments. */
const segmentsOf = (path: string) => path.split("/").filter((s) => s !== "" && s !== ".");

describe("workspace paths that try to leave the root", () => {
  it("covers at least 50 traversal variants", () => {
    expect(refused.length + literal.length + systemFiles.length).toBeGreaterThanOrEqual(50);
  });

  it.each(refused)(
    "refuses $name with INVALID_WORKSPACE_PATH on read and write, in memory and on disk",
    async ({ path: template }) => {
      const path = fill(template);
      const before = await snapshot(tmp, "");
      expect(() => parseWorkspacePath(path)).toThrowError(
        expect.objectContaining({ code: "INVALID_WORKSPACE_PATH" }),
      );
      for (const workspace of [memory, disk]) {
        await expect(workspace.readFile(path)).rejects.toMatchObject({
          code: "INVALID_WORKSPACE_PATH",
        });
        await expect(workspace.readFile(path, { maxBytes: 10 })).rejects.toMatchObject({
          code: "INVALID_WORKSPACE_PATH",
        });
        await expect(workspace.writeFile(path, "OVERWRITTEN")).rejects.toMatchObject({
          code: "INVALID_WORKSPACE_PATH",
        });
      }
      // Refused before the file system was touched: nothing changed anywhere, inside or outside.
      expect(await snapshot(tmp, "")).toEqual(before);
      await expectSecretsIntact();
      for (const [file, text] of Object.entries(initialFiles)) {
        expect(decoder.decode((await memory.readFile(file)).bytes)).toBe(text);
      }
    },
  );

  it.each(literal)(
    "treats $name as a literal name inside the root: FILE_NOT_FOUND on read, written inside on write",
    async ({ path: template }) => {
      const path = fill(template);
      const outsideBefore = await snapshot(tmp, root);
      const segments = segmentsOf(path);
      expect(parseWorkspacePath(path)).toEqual(segments);
      const data = `written through ${JSON.stringify(path)}`;
      for (const workspace of [memory, disk]) {
        await expect(workspace.readFile(path)).rejects.toMatchObject({ code: "FILE_NOT_FOUND" });
        await workspace.writeFile(path, data);
        expect(decoder.decode((await workspace.readFile(path)).bytes)).toBe(data);
      }
      // The file landed inside the root under its literal name, as a regular file.
      const written = join(root, ...segments);
      expect((await lstat(written)).isFile()).toBe(true);
      expect(await readFile(written, "utf8")).toBe(data);
      expect(await snapshot(tmp, root)).toEqual(outsideBefore);
      await expectSecretsIntact();
    },
  );

  it.each(systemFiles)(
    "refuses to read $name with INVALID_WORKSPACE_PATH, in memory and on disk",
    async ({ path }) => {
      for (const workspace of [memory, disk]) {
        await expect(workspace.readFile(path)).rejects.toMatchObject({
          code: "INVALID_WORKSPACE_PATH",
        });
        await expect(workspace.readFile(path, { maxBytes: 16 })).rejects.toMatchObject({
          code: "INVALID_WORKSPACE_PATH",
        });
      }
    },
  );

  it("refuses a path that is not a string with INVALID_WORKSPACE_PATH", async () => {
    for (const workspace of [memory, disk]) {
      for (const path of [undefined, null, 42, ["..", "secret.txt"]]) {
        const asString = path as unknown as string;
        await expect(workspace.readFile(asString)).rejects.toMatchObject({
          code: "INVALID_WORKSPACE_PATH",
        });
        await expect(workspace.writeFile(asString, "x")).rejects.toMatchObject({
          code: "INVALID_WORKSPACE_PATH",
        });
      }
    }
    await expectSecretsIntact();
  });
});

describe("workspace paths that normalise", () => {
  it.each([
    { path: "./docs//a.md", file: "docs/a.md" },
    { path: "docs/./a.md", file: "docs/a.md" },
    { path: ".//docs/a.md", file: "docs/a.md" },
    { path: "docs/a.md/", file: "docs/a.md" },
    { path: "docs///a.md", file: "docs/a.md" },
    { path: "././CONTEXT.md", file: "CONTEXT.md" },
    { path: "x/.", file: "x" },
  ])("reads $path as $file, in memory and on disk", async ({ path, file }) => {
    const expected = initialFiles[file];
    expect(parseWorkspacePath(path)).toEqual(file.split("/"));
    for (const workspace of [memory, disk]) {
      const read = await workspace.readFile(path);
      expect(decoder.decode(read.bytes)).toBe(expected);
      expect(read.size).toBe(expected?.length);
    }
  });

  it("writes ./docs//b.md to docs/b.md, in memory and on disk", async () => {
    for (const workspace of [memory, disk]) {
      await workspace.writeFile("./docs//b.md", "b\n");
      expect(decoder.decode((await workspace.readFile("docs/b.md")).bytes)).toBe("b\n");
    }
    expect(await readFile(join(root, "docs", "b.md"), "utf8")).toBe("b\n");
    expect((await readdir(join(root, "docs"))).sort()).toEqual(["a.md", "b.md"]);
  });
});
