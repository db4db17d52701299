import {
  FileNotFoundError,
  InvalidArgumentError,
  NotRegularFileError,
  TaskContextError,
  TaskContextMissingError,
  WorkspaceEscapeError,
  WorkspacePathError,
} from "@task-context/core";
import { describe, expect, it } from "vitest";

describe("errors", () => {
  it("carry a string code and recognise each other across bundled copies", () => {
    const errors = [
      [new TaskContextMissingError("not-found"), "TASK_CONTEXT_MISSING", TaskContextMissingError],
      [new WorkspacePathError("../x", "no"), "INVALID_WORKSPACE_PATH", WorkspacePathError],
      [new WorkspaceEscapeError("x"), "WORKSPACE_ESCAPE", WorkspaceEscapeError],
      [new NotRegularFileError("x", "fifo"), "NOT_A_REGULAR_FILE", NotRegularFileError],
      [new FileNotFoundError("x"), "FILE_NOT_FOUND", FileNotFoundError],
      [new InvalidArgumentError("maxChars", "no"), "INVALID_ARGUMENT", InvalidArgumentError],
    ] as const;
    for (const [error, code, type] of errors) {
      expect(error).toBeInstanceOf(TaskContextError);
      expect(error.code).toBe(code);
      expect(TaskContextError.isInstance(error)).toBe(true);
      expect(type.isInstance(error)).toBe(true);
      // A copy from another bundle: same marker, different class.
      const foreign = Object.assign(Object.create(Error.prototype), error);
      Object.defineProperty(foreign, Symbol.for("task-context.error"), { value: true });
      expect(type.isInstance(foreign)).toBe(true);
    }
    expect(TaskContextError.isInstance(new Error("x"))).toBe(false);
    expect(TaskContextMissingError.isInstance(new FileNotFoundError("x"))).toBe(false);
  });

  it("say what is wrong and what to do", () => {
    expect(new NotRegularFileError("CONTEXT.md", "character-device").message).toBe(
      'Refused "CONTEXT.md": it is a character device, not a regular file. Workspaces read and write regular files only and do not follow symbolic links.',
    );
    expect(new WorkspacePathError("../x", '".." segments are not allowed').message).toBe(
      'Invalid workspace path "../x": ".." segments are not allowed. Use a relative path with "/" separators inside the workspace, such as "docs/notes.md".',
    );
  });
});
