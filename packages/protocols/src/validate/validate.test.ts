import { ArgumentError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { UnknownSchemaError } from "../errors/unknown-schema-error.ts";
import { schemaIdOf, schemaNames } from "../schemas/registry.ts";
import { fixtureObject } from "../test-support/fixtures.ts";
import { resolveSchemaName, validate } from "./validate.ts";

const block = {
  version: 1,
  project: { path: "/work/app", stack: "nextjs-prisma" },
  conventions: { summary: "TypeScript strict. Tailwind + shadcn/ui." },
};
const workItem = fixtureObject("work-item.v1", "valid/task");

describe("validate", () => {
  it("accepts a valid value with no issues", () => {
    expect(validate("context-block.v1", block)).toEqual({ valid: true, issues: [] });
  });

  it("reports a missing field at its own pointer, saying what to write there", () => {
    expect(validate("context-block.v1", { ...block, conventions: {} })).toEqual({
      valid: false,
      issues: [
        {
          path: "/conventions/summary",
          message:
            "conventions.summary is required: a non-empty string, a 2-5 sentence summary of the key conventions (target 50-100 tokens, at most 200).",
        },
      ],
    });
  });

  it("reports every issue, in schema order", () => {
    const value = {
      version: 2,
      project: { path: "app", stack: "" },
      conventions: {},
      extra: true,
    };
    expect(validate("context-block.v1", value)).toEqual({
      valid: false,
      issues: [
        { path: "/version", message: "version must be 1, not the number 2." },
        {
          path: "/project/path",
          message:
            'project.path must be an absolute path (such as /Users/dev/code/my-app or C:\\code\\my-app), not the string "app".',
        },
        { path: "/project/stack", message: "project.stack must not be empty." },
        {
          path: "/conventions/summary",
          message:
            "conventions.summary is required: a non-empty string, a 2-5 sentence summary of the key conventions (target 50-100 tokens, at most 200).",
        },
        {
          path: "/extra",
          message:
            'Unknown field "extra" at the top level. Allowed: version, project, conventions, currentWork.',
        },
      ],
    });
  });

  it("escapes '/' and '~' of field names in the JSON Pointer", () => {
    const value = { ...block, project: { ...block.project, commands: { "a/b~c": 1 } } };
    expect(validate("context-block.v1", value).issues).toEqual([
      {
        path: "/project/commands/a~1b~0c",
        message:
          'project.commands["a/b~c"] must be a string, not the number 1. Quote it to make it a string: "1".',
      },
    ]);
  });

  it("refuses a task id that would leave .sage/context/", () => {
    const value = fixtureObject("subagent-context.v1", "valid/implement");
    value.task = { ...(value.task as object), id: "../x" };
    expect(validate("subagent-context.v1", value)).toEqual({
      valid: false,
      issues: [
        {
          path: "/task/id",
          message:
            "task.id must start with a letter or digit and use only letters, digits, '.', '_' and '-' (at most 128 characters), not the string \"../x\".",
        },
      ],
    });
  });

  it("narrows a work item's issues to the branch its kind selects", () => {
    expect(validate("work-item.v1", { ...workItem, kind: "review" })).toEqual({
      valid: false,
      issues: [
        {
          path: "/review_context",
          message:
            "review_context is required: an object with target_artifact_id, target_author_tag and review_criteria.",
        },
      ],
    });
    expect(validate("work-item.v1", { ...workItem, kind: "chore" })).toEqual({
      valid: false,
      issues: [
        {
          path: "/kind",
          message: 'kind must be one of "task" or "review", not the string "chore".',
        },
      ],
    });
  });

  it("says what a union needs when nothing selects a branch", () => {
    expect(validate("work-item.v1", "a work item")).toEqual({
      valid: false,
      issues: [
        {
          path: "",
          message:
            'the value must be an object whose kind is one of "task" or "review", not the string "a work item".',
        },
      ],
    });
    const { kind: _, ...withoutKind } = workItem;
    expect(validate("work-item.v1", withoutKind)).toEqual({
      valid: false,
      issues: [{ path: "/kind", message: 'kind is required: one of "task" or "review".' }],
    });
  });

  it("names an unknown key of a record keyed by subagent type", () => {
    expect(validate("context-limits.v1", { overrides: { reviw: { max_total: 1 } } })).toEqual({
      valid: false,
      issues: [
        {
          path: "/overrides/reviw",
          message:
            'Unknown field "reviw" in overrides. Allowed: implement, test, fix, review, plan.',
        },
      ],
    });
  });

  it("names the bound a number breaks", () => {
    expect(validate("context-limits.v1", { defaults: { max_total: 0 } }).issues).toEqual([
      {
        path: "/defaults/max_total",
        message: "defaults.max_total must be more than 0, not the number 0.",
      },
    ]);
    expect(
      validate("context-limits.v1", { defaults: { max_total: 2 ** 53 } }).issues[0]?.path,
    ).toBe("/defaults/max_total");
  });

  it("explains a bad timestamp in words", () => {
    const event = fixtureObject("collaboration-event.v1", "valid/work-item-leased");
    expect(validate("collaboration-event.v1", { ...event, at: "2026-11-20" })).toEqual({
      valid: false,
      issues: [
        {
          path: "/at",
          message:
            'at must be an ISO 8601 date-time with seconds and a time zone, such as 2026-11-20T10:15:30Z, not the string "2026-11-20".',
        },
      ],
    });
  });

  it("accepts a schema's $id as well as its name", () => {
    for (const name of schemaNames) {
      expect(resolveSchemaName(schemaIdOf(name))).toBe(name);
      expect(resolveSchemaName(name)).toBe(name);
    }
    expect(validate("urn:task-context:schema:context-block.v1", block)).toEqual({
      valid: true,
      issues: [],
    });
  });

  it("throws UnknownSchemaError, listing the published names, for an unknown schema", () => {
    for (const unknown of [
      "context-block.v2",
      "context-block",
      "urn:task-context:schema:x",
      "toString",
      "__proto__",
      "",
    ]) {
      expect(() => validate(unknown, block)).toThrow(UnknownSchemaError);
      expect(() => validate(unknown, block)).toThrow(
        expect.objectContaining({
          code: "UNKNOWN_SCHEMA",
          schema: unknown,
          name: "UnknownSchemaError",
        }),
      );
    }
    expect(() => validate("context-block.v2", block)).toThrow(
      `Unknown schema "context-block.v2". Use a published schema name or its $id (urn:task-context:schema:{name}); the names are: ${schemaNames.join(", ")}.`,
    );
  });

  it.each([
    [null, "null"],
    [undefined, "undefined"],
    [42, "a number (42)"],
    [{ name: "context-block.v1" }, "an object"],
  ])("throws ArgumentError for the schema name %j", (name, shown) => {
    expect(() => validate(name as unknown as string, block)).toThrow(ArgumentError);
    expect(() => validate(name as unknown as string, block)).toThrow(
      `Invalid schema: expected a string, got ${shown}.`,
    );
  });

  describe("hostile values", () => {
    it.each([
      [
        null,
        "the value must be an object with version, project, conventions and, optionally, currentWork, not null.",
      ],
      [
        undefined,
        "the value is required: an object with version, project, conventions and, optionally, currentWork.",
      ],
      [
        7,
        "the value must be an object with version, project, conventions and, optionally, currentWork, not the number 7.",
      ],
      [
        "",
        'the value must be an object with version, project, conventions and, optionally, currentWork, not the string "".',
      ],
      [
        [],
        "the value must be an object with version, project, conventions and, optionally, currentWork, not an array.",
      ],
    ])("reports %j as one issue at the root", (value, message) => {
      expect(validate("context-block.v1", value)).toEqual({
        valid: false,
        issues: [{ path: "", message }],
      });
    });

    it("answers for a value nested 100 000 levels deep without overflowing the stack", () => {
      let deep: unknown = "leaf";
      for (let level = 0; level < 100_000; level++) deep = { a: deep };
      const result = validate("context-block.v1", { ...block, currentWork: deep });
      expect(result.valid).toBe(false);
      expect(result.issues.map((issue) => issue.path)).toEqual(["/currentWork/a"]);
    });

    it("answers for a 5 MB string without copying it into the message", () => {
      const huge = "x".repeat(5 * 1024 * 1024);
      const result = validate("context-block.v1", { ...block, version: huge });
      expect(result.issues).toEqual([
        {
          path: "/version",
          message: 'version must be 1, not the string "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...".',
        },
      ]);
    });

    describe("reads none of a value's parts that hold no record of the schema", () => {
      /** An object `{ a: 1 }` that counts every read of its keys and fields. */
      function watchedObject() {
        const reads = { count: 0 };
        const read = <Result>(result: Result) => {
          reads.count++;
          return result;
        };
        const object = new Proxy(
          { a: 1 },
          {
            get: (target, key, receiver) => read(Reflect.get(target, key, receiver)),
            has: (target, key) => read(Reflect.has(target, key)),
            ownKeys: (target) => read(Reflect.ownKeys(target)),
            getOwnPropertyDescriptor: (target, key) =>
              read(Reflect.getOwnPropertyDescriptor(target, key)),
          },
        );
        return { object, reads };
      }
      const notAnObject =
        'the value must be an object whose kind is one of "task" or "review", not an array.';

      it("a 10 000-item array given as a work item", () => {
        const { object, reads } = watchedObject();
        expect(validate("work-item.v1", new Array(10_000).fill(object))).toEqual({
          valid: false,
          issues: [{ path: "", message: notAnObject }],
        });
        expect(reads.count).toBe(0);
      });

      it("arrays 5 levels deep whose 9 items share one array", () => {
        const { object, reads } = watchedObject();
        let shared: unknown = object;
        for (let level = 0; level < 5; level++) shared = new Array(9).fill(shared);
        expect(validate("work-item.v1", shared)).toEqual({
          valid: false,
          issues: [{ path: "", message: notAnObject }],
        });
        expect(reads.count).toBe(0);
      });

      it("an unknown field of a work item", () => {
        const { object, reads } = watchedObject();
        const value = { ...workItem, extra: new Array(10_000).fill({ nested: object }) };
        expect(validate("work-item.v1", value)).toEqual({
          valid: false,
          issues: [
            {
              path: "/extra",
              message:
                'Unknown field "extra" at the top level. Allowed: kind, id, run_id, stage_id, goal, constraints, stage_context, previous_artifacts, available_skills, attempt, context_sha256, trace_context.',
            },
          ],
        });
        expect(reads.count).toBe(0);
      });
    });

    it("does not let a forged __proto__ key change any prototype", () => {
      const value = JSON.parse(
        '{"version":1,"project":{"path":"/a","stack":"s","commands":{"__proto__":{"polluted":"yes"}}},"conventions":{"summary":"s"}}',
      );
      expect(validate("context-block.v1", value).valid).toBe(false);
      expect(({} as Record<string, unknown>).polluted).toBe(undefined);
    });
  });
});
