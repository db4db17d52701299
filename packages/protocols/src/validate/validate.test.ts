import { readFileSync } from "node:fs";
import { TaskContextError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { UnknownSchemaError } from "../errors/unknown-schema-error.ts";
import { schemaIdOf, schemaNames, schemaRegistry } from "../schemas/registry.ts";
import { patternMessages } from "./pattern-messages.ts";
import { fixtureObject } from "./test-fixtures.ts";
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

  it("reports a missing property at the object that lacks it, naming the property", () => {
    expect(validate("context-block.v1", { ...block, conventions: {} })).toEqual({
      valid: false,
      issues: [{ path: "/conventions", message: "must have required property 'summary'" }],
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
        { path: "", message: "must NOT have additional property 'extra'" },
        { path: "/version", message: "must be equal to constant 1" },
        { path: "/project/path", message: "must be an absolute path (spec 004: project root)" },
        { path: "/project/stack", message: "must NOT have fewer than 1 characters" },
        { path: "/conventions", message: "must have required property 'summary'" },
      ],
    });
  });

  it("escapes '/' and '~' of property names in the JSON Pointer", () => {
    const value = { ...block, project: { ...block.project, commands: { "a/b~c": 1 } } };
    expect(validate("context-block.v1", value).issues).toEqual([
      { path: "/project/commands/a~1b~0c", message: "must be string" },
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
            "must start with a letter or digit and use only letters, digits, '.', '_' and '-' (at most 128 characters)",
        },
      ],
    });
  });

  it("narrows a work item's issues to the branch its kind selects", () => {
    const review = { ...workItem, kind: "review" };
    expect(validate("work-item.v1", review)).toEqual({
      valid: false,
      issues: [{ path: "", message: "must have required property 'review_context'" }],
    });
    expect(validate("work-item.v1", { ...workItem, kind: "chore" })).toEqual({
      valid: false,
      issues: [
        { path: "/kind", message: 'must be equal to one of the allowed values: "task", "review"' },
      ],
    });
  });

  it("reports what every branch of a union agrees on when nothing selects one", () => {
    expect(validate("work-item.v1", "a work item")).toEqual({
      valid: false,
      issues: [{ path: "", message: "must be object" }],
    });
    const { kind: _, ...withoutKind } = workItem;
    expect(validate("work-item.v1", withoutKind)).toEqual({
      valid: false,
      issues: [{ path: "", message: "must have required property 'kind'" }],
    });
  });

  it("names an invalid property name", () => {
    expect(validate("context-limits.v1", { overrides: { "": { max_total: 1 } } })).toEqual({
      valid: false,
      issues: [
        {
          path: "/overrides",
          message:
            'property name \'\' must be equal to one of the allowed values: "implement", "test", "fix", "review", "plan"',
        },
      ],
    });
  });

  it("explains a bad timestamp in words", () => {
    const event = fixtureObject("collaboration-event.v1", "valid/work-item-assigned");
    expect(validate("collaboration-event.v1", { ...event, at: "2026-11-20" })).toEqual({
      valid: false,
      issues: [
        {
          path: "/at",
          message:
            "must be an ISO 8601 date-time with seconds and a time zone, such as 2026-11-20T10:15:30Z or 2026-11-20T11:15:30.5+01:00",
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
    ]) {
      let thrown: unknown;
      try {
        validate(unknown, block);
      } catch (error) {
        thrown = error;
      }
      expect(UnknownSchemaError.isInstance(thrown)).toBe(true);
      expect(TaskContextError.isInstance(thrown)).toBe(true);
      expect(thrown).toBeInstanceOf(UnknownSchemaError);
      expect(thrown).toMatchObject({
        code: "UNKNOWN_SCHEMA",
        schema: unknown,
        name: "UnknownSchemaError",
      });
    }
    expect(() => validate("context-block.v2", block)).toThrow(
      `Unknown schema "context-block.v2". Use a published schema name or its $id (urn:task-context:schema:{name}); the names are: ${schemaNames.join(", ")}.`,
    );
  });
});

describe("pattern messages", () => {
  const patterns = new Set<string>();
  for (const name of schemaNames) {
    const text = readFileSync(
      new URL(`../../schemas/${name}.schema.json`, import.meta.url),
      "utf8",
    );
    JSON.parse(text, (key, value) => {
      if (key === "pattern" && typeof value === "string") patterns.add(value);
      return value;
    });
  }

  it("cover every pattern of the published schemas", () => {
    expect([...patterns].sort()).toEqual([...patternMessages.keys()].sort());
  });

  it("say what zod says where the zod schema has its own message", () => {
    const zodMessage = (
      issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
      path: string,
    ) => issues.find((issue) => issue.path.join("/") === path)?.message;
    const blockIssues = schemaRegistry["context-block.v1"].safeParse({
      ...block,
      project: { ...block.project, path: "app" },
    }).error?.issues;
    expect(
      validate("context-block.v1", { ...block, project: { ...block.project, path: "app" } })
        .issues[0]?.message,
    ).toBe(zodMessage(blockIssues ?? [], "project/path"));
    const sage = fixtureObject("subagent-context.v1", "valid/implement");
    sage.task = { ...(sage.task as object), id: "../x" };
    const sageIssues = schemaRegistry["subagent-context.v1"].safeParse(sage).error?.issues;
    expect(validate("subagent-context.v1", sage).issues[0]?.message).toBe(
      zodMessage(sageIssues ?? [], "task/id"),
    );
  });
});
