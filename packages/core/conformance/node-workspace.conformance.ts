// Conformance of @task-context/core/node (a directory on disk) on Node 20, Node 24, Bun and Deno.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadTaskContext } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { describe, expect, it } from "vitest";

async function withDirectory(run: (root: string, outside: string) => Promise<void>) {
  const base = await mkdtemp(join(tmpdir(), "task-context-conformance-"));
  const root = join(base, "root");
  const outside = join(base, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), "SECRET");
  try {
    await run(root, outside);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("@task-context/core", () => {
  it("loads CONTEXT.md from a directory path, CRLF inside kept, surrounding whitespace trimmed", () =>
    withDirectory(async (root) => {
      await writeFile(join(root, "CONTEXT.md"), "Lumen\r\nnotes\r\n");
      const context = await loadTaskContext(root);
      expect(context.content).toBe("Lumen\r\nnotes");
    }));

  it("bounds a read and reports the full size", () =>
    withDirectory(async (root) => {
      await writeFile(join(root, "big.txt"), "0123456789");
      const read = await nodeWorkspace(root).readFile("big.txt", { maxBytes: 3 });
      expect(text(read.bytes)).toBe("012");
      expect(read.size).toBe(10);
    }));

  it("refuses a symlink at the last component and through a parent directory", () =>
    withDirectory(async (root, outside) => {
      await symlink(join(outside, "secret.txt"), join(root, "CONTEXT.md"));
      await symlink(outside, join(root, "docs"));
      const workspace = nodeWorkspace(root);
      await expect(workspace.readFile("CONTEXT.md")).rejects.toMatchObject({
        code: "NOT_A_REGULAR_FILE",
      });
      await expect(workspace.readFile("docs/secret.txt")).rejects.toMatchObject({
        code: "WORKSPACE_ESCAPE",
      });
      await expect(loadTaskContext(workspace)).rejects.toMatchObject({
        code: "TASK_CONTEXT_MISSING",
      });
    }));

  it("refuses traversal before touching the disk", () =>
    withDirectory(async (root) => {
      const workspace = nodeWorkspace(root);
      for (const path of ["../outside/secret.txt", "/etc/passwd", "..\\outside", "a\0b"]) {
        await expect(workspace.readFile(path)).rejects.toMatchObject({
          code: "INVALID_WORKSPACE_PATH",
        });
        await expect(workspace.writeFile(path, "x")).rejects.toMatchObject({
          code: "INVALID_WORKSPACE_PATH",
        });
      }
    }));

  it("writes atomically, replacing a symlink instead of following it", () =>
    withDirectory(async (root, outside) => {
      await symlink(join(outside, "secret.txt"), join(root, "notes.md"));
      const workspace = nodeWorkspace(root);
      await workspace.writeFile("notes.md", "mine");
      await workspace.writeFile("deep/er/file.md", "nested");
      expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("SECRET");
      expect(await readFile(join(root, "notes.md"), "utf8")).toBe("mine");
      expect(text((await workspace.readFile("deep/er/file.md")).bytes)).toBe("nested");
    }));
});
