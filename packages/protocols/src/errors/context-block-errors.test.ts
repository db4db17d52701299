import { TaskContextError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { ContextPathOutsideProjectError } from "./context-path-outside-project-error.ts";
import { InvalidContextBlockError } from "./invalid-context-block-error.ts";
import { InvalidYamlError } from "./invalid-yaml-error.ts";

describe("context block errors", () => {
  const errors = [
    [
      new InvalidYamlError({
        kind: "alias",
        line: 3,
        detail: "aliases (*a) are not allowed.",
        path: "/b",
      }),
      "INVALID_YAML",
      "InvalidYamlError",
      InvalidYamlError,
    ],
    [
      new InvalidContextBlockError({
        issues: [{ path: "/project/stack", message: "project.stack must not be empty." }],
      }),
      "INVALID_CONTEXT_BLOCK",
      "InvalidContextBlockError",
      InvalidContextBlockError,
    ],
    [
      new ContextPathOutsideProjectError({
        field: "conventions.fullPath",
        path: "/etc/passwd",
        projectPath: "C:\\code\\app",
      }),
      "CONTEXT_PATH_OUTSIDE_PROJECT",
      "ContextPathOutsideProjectError",
      ContextPathOutsideProjectError,
    ],
  ] as const;

  it.each(errors)("%s carries its code and name and is a TaskContextError", (error, code, name) => {
    expect(error).toBeInstanceOf(TaskContextError);
    expect(error.code).toBe(code);
    expect(error.name).toBe(name);
  });

  it.each(errors)(
    "%s recognises a copy from another bundle and nothing else",
    (error, _code, name, type) => {
      const foreign = {
        [Symbol.for("task-context.error")]: true,
        [Symbol.for(`task-context.error.${name}`)]: true,
      };
      expect(type.isInstance(error)).toBe(true);
      expect(type.isInstance(foreign)).toBe(true);
      expect(type.isInstance(new Error("x"))).toBe(false);
      expect(type.isInstance(new TaskContextError({ code: "OTHER", message: "x" }))).toBe(false);
    },
  );

  it("InvalidYamlError names the line, what is wrong and what to do", () => {
    const error = errors[0][0];
    expect(error.message).toBe("Invalid YAML at line 3: aliases (*a) are not allowed.");
    expect(error.line).toBe(3);
    expect(error.kind).toBe("alias");
    expect(error.path).toBe("/b");
    expect(error.detail).toBe("aliases (*a) are not allowed.");
  });

  it("InvalidContextBlockError lists its issues", () => {
    expect(errors[1][0].message).toBe(
      "Cannot render the context block: it does not match Context Protocol v1.\n- /project/stack: project.stack must not be empty.\nFix these fields (see contextBlockSchema) and render again.",
    );
  });

  it("ContextPathOutsideProjectError suggests a path in the project's own style", () => {
    const error = errors[2][0];
    expect(error.path).toBe("/etc/passwd");
    expect(error.projectPath).toBe("C:\\code\\app");
    expect(error.message).toBe(
      'Refused conventions.fullPath "/etc/passwd": it is outside the project root "C:\\\\code\\\\app", and only files inside the project (the workspace) are read. Point conventions.fullPath at a file under project.path, such as "C:\\\\code\\\\app\\\\docs\\\\CONVENTIONS.md".',
    );
  });
});
