// The tools on a real directory (core's nodeWorkspace): paths that leave the root are refused and
// generated files land on disk whole.
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeWorkspace } from "@task-context/core/node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMediaTools } from "./index.ts";
import { allModels, CONTEXT, call, externalCalls, PNG } from "./test-support/fixtures.ts";

let parent: string;
let root: string;

beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), "media-tools-"));
  root = join(parent, "workspace");
  await mkdir(root);
  await writeFile(join(root, "CONTEXT.md"), CONTEXT);
  await writeFile(join(parent, "secret.png"), PNG);
});

afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

describe("on a directory (nodeWorkspace)", () => {
  it("refuses a symbolic link to a file outside the workspace, and calls nothing", async () => {
    await symlink(join(parent, "secret.png"), join(root, "linked.png"));
    const models = allModels();
    const tools = createMediaTools({ workspace: nodeWorkspace(root), models });
    const result = await call(tools.read_media, { path: "linked.png", prompt: "What is it?" });
    expect(result).toMatchObject({ success: false, code: "NOT_A_REGULAR_FILE" });
    expect((result as { error: string }).error).toContain('Refused "linked.png"');
    expect(externalCalls(models)).toBe(0);
  });

  it("refuses a path through a symbolic link to a directory outside the workspace", async () => {
    await symlink(parent, join(root, "up"));
    const models = allModels();
    const tools = createMediaTools({ workspace: nodeWorkspace(root), models });
    const result = await call(tools.read_media, { path: "up/secret.png", prompt: "What is it?" });
    expect(result).toEqual({
      success: false,
      code: "WORKSPACE_ESCAPE",
      error:
        'Refused "up/secret.png": it resolves to a location outside the workspace root (through a symbolic link). Keep workspace files as real files inside the workspace.',
    });
    expect(externalCalls(models)).toBe(0);
  });

  it("refuses .. before touching the disk", async () => {
    const models = allModels();
    const tools = createMediaTools({ workspace: nodeWorkspace(root), models });
    const result = await call(tools.read_media, { path: "../secret.png", prompt: "What is it?" });
    expect(result).toMatchObject({ success: false, code: "INVALID_WORKSPACE_PATH" });
  });

  it("writes a generated image to disk, whole, and leaves no temporary file", async () => {
    const tools = createMediaTools({ workspace: nodeWorkspace(root), models: allModels() });
    const result = await call(tools.generate_image, { prompt: "A logo." });
    expect(result).toMatchObject({ success: true, mediaType: "image/png", size: PNG.length });
    const path = (result as { path: string }).path;
    expect(new Uint8Array(await readFile(join(root, path)))).toEqual(PNG);
    expect(await readdir(join(root, "generated"))).toEqual([path.slice("generated/".length)]);
  });

  it("reads CONTEXT.md from the directory on every call", async () => {
    await rm(join(root, "CONTEXT.md"));
    const models = allModels();
    const tools = createMediaTools({ workspace: nodeWorkspace(root), models });
    expect(await call(tools.generate_image, { prompt: "A logo." })).toMatchObject({
      code: "TASK_CONTEXT_MISSING",
    });
    await writeFile(join(root, "CONTEXT.md"), "Written mid-run.");
    expect(await call(tools.generate_image, { prompt: "A logo." })).toMatchObject({
      success: true,
    });
    expect(models.image.calls[0]?.prompt).toBe(
      "[Task Context]\nWritten mid-run.\n\n[Request]\nA logo.",
    );
  });
});
