import { mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadTaskContext } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fingerprintedLoader } from "./fingerprinted-loader.ts";

let directory: string;
let loads: number;
const path = () => join(directory, "CONTEXT.md");
const counted = () => {
  loads++;
  return loadTaskContext(nodeWorkspace(directory));
};

beforeEach(() => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-fingerprint-")));
  writeFileSync(path(), "v1");
  loads = 0;
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe("fingerprintedLoader", () => {
  it("reuses the load of a settled, unchanged file and loads a changed one again", async () => {
    const load = fingerprintedLoader(counted, path(), 0);
    expect((await load()).content).toBe("v1");
    expect((await load()).content).toBe("v1");
    expect(loads).toBe(1);
    writeFileSync(path(), "v2, longer");
    expect((await load()).content).toBe("v2, longer");
    expect(loads).toBe(2);
  });

  it("loads a file changed in the last two seconds on every call: its timestamp may not move", async () => {
    const load = fingerprintedLoader(counted, path());
    await load();
    await load();
    expect(loads).toBe(2);
  });

  it("loads again when the file is replaced by a symbolic link, and core refuses it", async () => {
    const load = fingerprintedLoader(counted, path(), 0);
    await load();
    unlinkSync(path());
    writeFileSync(join(directory, "other.md"), "v1");
    symlinkSync(join(directory, "other.md"), path());
    await expect(load()).rejects.toMatchObject({ code: "TASK_CONTEXT_MISSING" });
    await expect(load()).rejects.toMatchObject({ code: "TASK_CONTEXT_MISSING" });
    expect(loads).toBe(3);
  });

  it("keeps no failed load: a missing file is looked for again", async () => {
    const load = fingerprintedLoader(counted, path(), 0);
    unlinkSync(path());
    await expect(load()).rejects.toMatchObject({ code: "TASK_CONTEXT_MISSING" });
    writeFileSync(path(), "v3");
    expect((await load()).content).toBe("v3");
  });
});
