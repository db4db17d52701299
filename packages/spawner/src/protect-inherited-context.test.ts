import { memoryWorkspace, WorkspacePathError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { ContextReadOnlyError } from "./errors/context-read-only-error.ts";
import { protectInheritedContext } from "./protect-inherited-context.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("protectInheritedContext", () => {
  it("refuses every spelling of a write to CONTEXT.md and leaves the file as it was", async () => {
    const inner = memoryWorkspace({ "CONTEXT.md": "Building Lumen." });
    const workspace = protectInheritedContext(inner);
    for (const path of [
      "CONTEXT.md",
      "./CONTEXT.md",
      ".//CONTEXT.md",
      "context.md",
      "Context.MD",
    ]) {
      const error = await workspace.writeFile(path, "hijacked").catch((caught) => caught);
      expect(ContextReadOnlyError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: "CONTEXT_READ_ONLY", path });
    }
    expect(text((await inner.readFile("CONTEXT.md")).bytes)).toBe("Building Lumen.");
  });

  it("reads CONTEXT.md and writes every other file through to the inner workspace", async () => {
    const inner = memoryWorkspace({ "CONTEXT.md": "Building Lumen." });
    const workspace = protectInheritedContext(inner);
    expect(text((await workspace.readFile("CONTEXT.md", { maxBytes: 8 })).bytes)).toBe("Building");
    await workspace.writeFile("notes/CONTEXT.md", "a nested file of that name is fine");
    await workspace.writeFile("CONTEXT.md.bak", "so is a longer name");
    expect(text((await inner.readFile("notes/CONTEXT.md")).bytes)).toBe(
      "a nested file of that name is fine",
    );
    expect(text((await inner.readFile("CONTEXT.md.bak")).bytes)).toBe("so is a longer name");
    expect(workspace.description).toBe("memory workspace (CONTEXT.md read-only)");
  });

  it("still refuses paths that leave the workspace", async () => {
    const workspace = protectInheritedContext(memoryWorkspace());
    await expect(workspace.writeFile("../CONTEXT.md", "x")).rejects.toBeInstanceOf(
      WorkspacePathError,
    );
  });
});
