import { TaskContextError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { ContextLimitsError } from "./context-limits-error.ts";
import { ContextTooLargeError } from "./context-too-large-error.ts";
import { InvalidSubagentContextError } from "./invalid-subagent-context-error.ts";
import { InvalidTaskIdError } from "./invalid-task-id-error.ts";

describe("sage errors", () => {
  it("carry a string code and recognise each other across bundled copies", () => {
    const errors = [
      [
        new InvalidSubagentContextError({ issues: [{ path: "task.id", message: "bad" }] }),
        "INVALID_SUBAGENT_CONTEXT",
        InvalidSubagentContextError,
      ],
      [
        new ContextLimitsError({ path: "x.yaml", problem: "bad" }),
        "INVALID_CONTEXT_LIMITS",
        ContextLimitsError,
      ],
      [
        new ContextTooLargeError({
          taskId: "T",
          subagentType: "plan",
          tokens: 2,
          maxTotal: 1,
          requiredTokens: 1,
        }),
        "CONTEXT_TOO_LARGE",
        ContextTooLargeError,
      ],
      [new InvalidTaskIdError({ taskId: "../x" }), "INVALID_TASK_ID", InvalidTaskIdError],
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
    expect(InvalidTaskIdError.isInstance(new ContextLimitsError({ path: "x", problem: "y" }))).toBe(
      false,
    );
  });

  it("say what is wrong and what to do", () => {
    expect(new InvalidTaskIdError({ taskId: "../x" }).message).toBe(
      'Invalid task id "../x": it must start with a letter or digit and use only letters, digits, ".", "_" and "-" (at most 128 characters), because the context is written to .sage/context/{taskId}.xml. Use an id such as "story-12.task-3".',
    );
    expect(new InvalidTaskIdError({ taskId: "y".repeat(200) }).message).toContain(
      `"${"y".repeat(80)}"…:`,
    );
    const limits = new ContextLimitsError({
      path: "a.yaml",
      problem: "bad value",
      line: 3,
      column: 5,
    });
    expect(limits.message).toBe(
      "Invalid context limits in a.yaml at line 3, column 5: bad value. Fix the file, or delete it to use the built-in limits.",
    );
    const invalid = new InvalidSubagentContextError({
      issues: [
        { path: "/task/type", message: "task.type is unknown.", line: 4, column: 11 },
        { path: "", message: "second" },
      ],
    });
    expect(invalid.message).toBe(
      'Invalid subagent-context document at line 4, column 11: task.type is unknown; second. Render documents with renderSubagentContext so that they follow the <subagent-context version="1.0"> shape.',
    );
    expect([invalid.line, invalid.column]).toEqual([4, 11]);
    const many = new InvalidSubagentContextError({
      issues: Array.from({ length: 12 }, (_, index) => ({
        path: `/context/${index}`,
        message: `context[${index}] is bad.`,
      })),
    });
    expect(many.message).toContain("context[9] is bad; and 2 more.");
    expect(many.issues).toHaveLength(12);
  });
});
