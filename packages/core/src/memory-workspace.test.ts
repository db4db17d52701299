import { memoryWorkspace, TaskContextError } from "@task-context/core";
import { describe, expect, it } from "vitest";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("memoryWorkspace", () => {
  it("reads what it was given and what was written, with normalised paths", async () => {
    const workspace = memoryWorkspace({ "docs/a.md": "A" });
    await workspace.writeFile("./docs//b.md", "B");
    expect(text((await workspace.readFile("docs/a.md")).bytes)).toBe("A");
    expect(text((await workspace.readFile("docs/b.md")).bytes)).toBe("B");
  });

  it("bounds a read by maxBytes and reports the full size", async () => {
    const workspace = memoryWorkspace({ "big.txt": "0123456789" });
    const read = await workspace.readFile("big.txt", { maxBytes: 4 });
    expect(text(read.bytes)).toBe("0123");
    expect(read.size).toBe(10);
  });

  it("keeps its own copy of written bytes", async () => {
    const bytes = new Uint8Array([65]);
    const workspace = memoryWorkspace();
    await workspace.writeFile("a", bytes);
    bytes[0] = 66;
    expect(text((await workspace.readFile("a")).bytes)).toBe("A");
  });

  it("refuses directories, missing files and files used as directories with typed errors", async () => {
    const workspace = memoryWorkspace({ "docs/a.md": "A" });
    const codeOf = (promise: Promise<unknown>) =>
      promise.then(
        () => "no error",
        (error: unknown) => (TaskContextError.isInstance(error) ? error.code : String(error)),
      );
    expect(await codeOf(workspace.readFile("docs"))).toBe("NOT_A_REGULAR_FILE");
    expect(await codeOf(workspace.readFile("nope.md"))).toBe("FILE_NOT_FOUND");
    expect(await codeOf(workspace.writeFile("docs/a.md/x", "x"))).toBe("INVALID_WORKSPACE_PATH");
    expect(await codeOf(workspace.writeFile("docs", "x"))).toBe("NOT_A_REGULAR_FILE");
    expect(await codeOf(workspace.readFile("a.md", { maxBytes: -1 }))).toBe("FILE_NOT_FOUND");
    expect(await codeOf(workspace.readFile("docs/a.md", { maxBytes: -1 }))).toBe(
      "INVALID_ARGUMENT",
    );
  });

  it("refuses invalid initial paths", () => {
    expect(() => memoryWorkspace({ "../x": "x" })).toThrow('Invalid workspace path "../x"');
  });
});
