import { TaskContextError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { ContextReadOnlyError } from "./context-read-only-error.ts";
import { SubagentProcessError } from "./subagent-process-error.ts";
import { SubagentSetupError } from "./subagent-setup-error.ts";
import { SubagentWorkspaceExistsError } from "./subagent-workspace-exists-error.ts";

describe("spawner errors", () => {
  it("carry a string code and recognise each other across bundled copies", () => {
    const errors = [
      [new ContextReadOnlyError({ path: "CONTEXT.md" }), "CONTEXT_READ_ONLY", ContextReadOnlyError],
      [
        new SubagentWorkspaceExistsError({ paths: ["/tmp/a"] }),
        "SUBAGENT_WORKSPACE_EXISTS",
        SubagentWorkspaceExistsError,
      ],
      [
        new SubagentProcessError({ message: "exited" }),
        "SUBAGENT_PROCESS_FAILED",
        SubagentProcessError,
      ],
      [
        new SubagentSetupError({ step: "directory", taskId: "a", systemCode: "ENOSPC" }),
        "SUBAGENT_SETUP_FAILED",
        SubagentSetupError,
      ],
    ] as const;
    for (const [error, code, type] of errors) {
      expect(error).toBeInstanceOf(TaskContextError);
      expect(error.code).toBe(code);
      expect(error.name).toBe(type.name);
      expect(TaskContextError.isInstance(error)).toBe(true);
      expect(type.isInstance(error)).toBe(true);
      // A copy from another bundle: another class, the same markers.
      const foreign = {
        [Symbol.for("task-context.error")]: true,
        [Symbol.for(`task-context.error.${type.name}`)]: true,
      };
      expect(type.isInstance(foreign)).toBe(true);
    }
    expect(ContextReadOnlyError.isInstance(new SubagentProcessError({ message: "x" }))).toBe(false);
    expect(ContextReadOnlyError.isInstance(new Error("CONTEXT_READ_ONLY"))).toBe(false);
  });

  it("say what is wrong and what to do", () => {
    expect(new ContextReadOnlyError({ path: "./CONTEXT.md" }).message).toBe(
      'Refused to write "./CONTEXT.md": CONTEXT.md is read-only in a subagent workspace because it is inherited from the parent agent. Write your notes to another file, and say in your result\'s notes what should change in CONTEXT.md so the parent can update it.',
    );
    expect(new SubagentWorkspaceExistsError({ paths: ["/w/a"] }).message).toBe(
      'Subagent workspace directory already exists: "/w/a". Nothing was started. Use new task ids or another workspacesRoot, or remove the old directories yourself; the spawner never reuses or deletes them.',
    );
    const many = new SubagentWorkspaceExistsError({
      paths: Array.from({ length: 7 }, (_, index) => `/w/${index}`),
    });
    expect(many.message).toContain(
      'directories already exist: "/w/0", "/w/1", "/w/2", "/w/3", "/w/4" and 2 more.',
    );
    expect(many.paths).toHaveLength(7);
    expect(
      new SubagentSetupError({ step: "context-copy", taskId: "a", systemCode: "ENOSPC" }).message,
    ).toBe(
      'Could not write the copy of CONTEXT.md for subagent "a", so it was not started: the disk is full (ENOSPC). Free some space, or use a workspacesRoot on another disk.',
    );
    expect(
      new SubagentSetupError({ step: "directory", taskId: "a", systemCode: undefined }).message,
    ).toBe(
      'Could not create the directory of subagent "a", so it was not started: the file system refused. Check that workspacesRoot is a writable directory with free space.',
    );
    const cause = new Error("spawn ENOENT");
    const failed = new SubagentProcessError({ message: "Could not start", log: "tail", cause });
    expect([failed.log, failed.cause]).toEqual(["tail", cause]);
  });
});
