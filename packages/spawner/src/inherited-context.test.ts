import { execFileSync } from "node:child_process";
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ReadFileOptions, Workspace } from "@task-context/core";
import { sha256Hex } from "@task-context/core/internal";
import { nodeWorkspace } from "@task-context/core/node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  checkContextCopy,
  loadParentContext,
  writeContextCopy,
  writeNewFile,
} from "./inherited-context.ts";
import { CONTEXT, createFixture, type Fixture } from "./test-support/fixtures.ts";

let fixture: Fixture;
beforeEach(async () => {
  fixture = await createFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

/** A workspace that counts its reads of CONTEXT.md. */
function counting(inner: Workspace): Workspace & { reads: number } {
  const workspace = {
    reads: 0,
    description: inner.description,
    readFile(path: string, options?: ReadFileOptions) {
      if (path === "CONTEXT.md") workspace.reads++;
      return inner.readFile(path, options);
    },
    writeFile: (path: string, data: string | Uint8Array) => inner.writeFile(path, data),
  };
  return workspace;
}

describe("loadParentContext", () => {
  it("proves the parent unchanged from its metadata alone, without reading it again", async () => {
    const file = join(fixture.parent, "CONTEXT.md");
    const parent = counting(nodeWorkspace(fixture.parent));
    const loaded = await loadParentContext(parent, {}, file, 0n);
    expect(loaded.context.content).toBe(CONTEXT);
    expect(parent.reads).toBe(1);
    expect(await loaded.currentSha256()).toBe(loaded.context.sha256);
    expect(parent.reads).toBe(1);
  });

  it("sees a same-size rewrite through the metadata and confirms it by content", async () => {
    const file = join(fixture.parent, "CONTEXT.md");
    const loaded = await loadParentContext(nodeWorkspace(fixture.parent), {}, file, 0n);
    await writeFile(file, CONTEXT.replace("Lumen", "Lumex"));
    expect(await loaded.currentSha256()).toBe(await sha256Hex(CONTEXT.replace("Lumen", "Lumex")));
  });

  it("does not call a metadata-only change (chmod) a change of the context", async () => {
    const file = join(fixture.parent, "CONTEXT.md");
    const loaded = await loadParentContext(nodeWorkspace(fixture.parent), {}, file, 0n);
    await chmod(file, 0o600);
    expect(await loaded.currentSha256()).toBe(loaded.context.sha256);
  });

  it("compares bytes when the file was modified too recently for its timestamps to tell", async () => {
    const file = join(fixture.parent, "CONTEXT.md");
    const parent = counting(nodeWorkspace(fixture.parent));
    // A granularity longer than the file's age: its timestamps cannot prove it unchanged.
    const loaded = await loadParentContext(parent, {}, file, 10n ** 15n);
    expect(await loaded.currentSha256()).toBe(loaded.context.sha256);
    expect(parent.reads).toBe(2);
  });
});

describe("the subagent's copy", () => {
  it("is written once, read-only, and checked by SHA-256", async () => {
    const directory = join(fixture.base, "sub");
    await mkdir(directory);
    const loaded = await loadParentContext(nodeWorkspace(fixture.parent));
    writeContextCopy(directory, loaded.bytes);
    expect(() => writeContextCopy(directory, loaded.bytes)).toThrow(/EEXIST/);
    expect((await stat(join(directory, "CONTEXT.md"))).mode & 0o777).toBe(0o444);
    expect(
      await checkContextCopy(directory, loaded.bytes.length, loaded.context.sha256),
    ).toBeUndefined();
    writeNewFile(directory, ".sage/context/a.xml", new TextEncoder().encode("<x/>"));
    expect(await readFile(join(directory, ".sage/context/a.xml"), "utf8")).toBe("<x/>");
  });

  it("reports a FIFO in place of the copy without blocking on it", async () => {
    const directory = join(fixture.base, "sub");
    await mkdir(directory);
    execFileSync("mkfifo", [join(directory, "CONTEXT.md")]);
    expect(await checkContextCopy(directory, 10, "0".repeat(64))).toBe(
      "was replaced with something that is not a regular file",
    );
  });
});
