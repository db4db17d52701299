// Conformance of @task-context/core/node (a directory on disk) on Node 20, Node 24, Bun and Deno.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadTaskContext } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { assert, defineSuite } from "@task-context/runtime-matrix/harness";

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

export default defineSuite({
  package: "@task-context/core",
  runtimes: ["node20", "node24", "bun", "deno"],
  cases: [
    {
      name: "loads CONTEXT.md from a directory path, CRLF inside kept, surrounding whitespace trimmed",
      run: () =>
        withDirectory(async (root) => {
          await writeFile(join(root, "CONTEXT.md"), "Lumen\r\nnotes\r\n");
          const context = await loadTaskContext(root);
          assert.equal(context.content, "Lumen\r\nnotes");
        }),
    },
    {
      name: "bounds a read and reports the full size",
      run: () =>
        withDirectory(async (root) => {
          await writeFile(join(root, "big.txt"), "0123456789");
          const read = await nodeWorkspace(root).readFile("big.txt", { maxBytes: 3 });
          assert.equal(text(read.bytes), "012");
          assert.equal(read.size, 10);
        }),
    },
    {
      name: "refuses a symlink at the last component and through a parent directory",
      run: () =>
        withDirectory(async (root, outside) => {
          await symlink(join(outside, "secret.txt"), join(root, "CONTEXT.md"));
          await symlink(outside, join(root, "docs"));
          const workspace = nodeWorkspace(root);
          await assert.rejects(() => workspace.readFile("CONTEXT.md"), "NOT_A_REGULAR_FILE");
          await assert.rejects(() => workspace.readFile("docs/secret.txt"), "WORKSPACE_ESCAPE");
          await assert.rejects(() => loadTaskContext(workspace), "TASK_CONTEXT_MISSING");
        }),
    },
    {
      name: "refuses traversal before touching the disk",
      run: () =>
        withDirectory(async (root) => {
          const workspace = nodeWorkspace(root);
          for (const path of ["../outside/secret.txt", "/etc/passwd", "..\\outside", "a\0b"]) {
            await assert.rejects(() => workspace.readFile(path), "INVALID_WORKSPACE_PATH");
            await assert.rejects(() => workspace.writeFile(path, "x"), "INVALID_WORKSPACE_PATH");
          }
        }),
    },
    {
      name: "writes atomically, replacing a symlink instead of following it",
      run: () =>
        withDirectory(async (root, outside) => {
          await symlink(join(outside, "secret.txt"), join(root, "notes.md"));
          const workspace = nodeWorkspace(root);
          await workspace.writeFile("notes.md", "mine");
          await workspace.writeFile("deep/er/file.md", "nested");
          assert.equal(await readFile(join(outside, "secret.txt"), "utf8"), "SECRET");
          assert.equal(await readFile(join(root, "notes.md"), "utf8"), "mine");
          assert.equal(text((await workspace.readFile("deep/er/file.md")).bytes), "nested");
        }),
    },
  ],
});
