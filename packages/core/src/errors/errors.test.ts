import {
  ArgumentError,
  ContextViewEmptyError,
  FileNotFoundError,
  NotRegularFileError,
  SecretInContextError,
  TaskContextError,
  TaskContextMissingError,
  TokenizerUnavailableError,
  WorkspaceEscapeError,
  WorkspaceIoError,
  WorkspacePathError,
} from "@task-context/core";
import { describe, expect, it } from "vitest";

describe("errors", () => {
  const errors = [
    [new TaskContextMissingError({ reason: "not-found" }), "TASK_CONTEXT_MISSING"],
    [new WorkspacePathError({ path: "../x", problem: "no" }), "INVALID_WORKSPACE_PATH"],
    [new WorkspaceEscapeError({ path: "x" }), "WORKSPACE_ESCAPE"],
    [
      new WorkspaceIoError({ path: "x", operation: "read", systemCode: "EIO" }),
      "WORKSPACE_IO_ERROR",
    ],
    [new NotRegularFileError({ path: "x", kind: "fifo" }), "NOT_A_REGULAR_FILE"],
    [new FileNotFoundError({ path: "x" }), "FILE_NOT_FOUND"],
    [new ArgumentError({ argument: "maxChars", message: "no" }), "INVALID_ARGUMENT"],
    [new TokenizerUnavailableError(), "TOKENIZER_UNAVAILABLE"],
    [new SecretInContextError({ redactions: [{ kind: "jwt", line: 2 }] }), "SECRET_IN_CONTEXT"],
    [new ContextViewEmptyError({ view: { name: "v" }, headings: [] }), "CONTEXT_VIEW_EMPTY"],
  ] as const;
  const classes = [
    TaskContextMissingError,
    WorkspacePathError,
    WorkspaceEscapeError,
    WorkspaceIoError,
    NotRegularFileError,
    FileNotFoundError,
    ArgumentError,
    TokenizerUnavailableError,
    SecretInContextError,
    ContextViewEmptyError,
  ] as const;

  it.each(errors)("%s carries its code and its class name", (error, code) => {
    expect(error).toBeInstanceOf(TaskContextError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(code);
    expect(error.name).toBe(error.constructor.name);
    expect(TaskContextError.isInstance(error)).toBe(true);
  });

  it("each class recognises its own errors, from any bundled copy, and no other", () => {
    for (const [index, type] of classes.entries()) {
      // A copy from another bundle: another class, the same markers.
      const foreign = {
        [Symbol.for("task-context.error")]: true,
        [Symbol.for(`task-context.error.${type.name}`)]: true,
      };
      expect(type.isInstance(foreign)).toBe(true);
      expect(TaskContextError.isInstance(foreign)).toBe(true);
      for (const [other, [error]] of errors.entries()) {
        expect(type.isInstance(error)).toBe(other === index);
      }
    }
    expect(TaskContextError.isInstance(new Error("x"))).toBe(false);
    expect(TaskContextError.isInstance({ code: "TASK_CONTEXT_MISSING" })).toBe(false);
    expect(TaskContextError.isInstance(null)).toBe(false);
  });

  it("say what is wrong and what to do", () => {
    expect(new NotRegularFileError({ path: "CONTEXT.md", kind: "character-device" }).message).toBe(
      'Refused "CONTEXT.md": it is a character device, not a regular file. Workspaces read and write regular files only and do not follow symbolic links.',
    );
    expect(
      new WorkspacePathError({ path: "../x", problem: '".." segments are not allowed' }).message,
    ).toBe(
      'Invalid workspace path "../x": ".." segments are not allowed. Use a relative path with "/" separators inside the workspace, such as "docs/notes.md".',
    );
    expect(new WorkspaceEscapeError({ path: "notes.md", route: "hard-link" }).message).toBe(
      'Refused "notes.md": it is a hard link (the file has more than one name), so it may be a file outside the workspace under another name. Copy the file into the workspace instead, or open the workspace with `allowHardLinks: true` if you trust every name the file has.',
    );
    expect(
      new WorkspaceIoError({ path: "a/b.md", operation: "write", systemCode: "ENAMETOOLONG" })
        .message,
    ).toBe(
      'Could not write "a/b.md" in the workspace: a name in the path is longer than the file system allows (ENAMETOOLONG). Check the path and the workspace\'s permissions and free space.',
    );
    expect(
      new ArgumentError({ argument: "maxChars", message: "expected a whole number ≥ 1, got 0." })
        .message,
    ).toBe("Invalid maxChars: expected a whole number ≥ 1, got 0.");
  });
});
