import { TaskContextError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { UnknownSchemaError } from "./unknown-schema-error.ts";

describe("UnknownSchemaError", () => {
  it("carries the UNKNOWN_SCHEMA code and lists the known schemas", () => {
    const error = new UnknownSchemaError({
      schema: "context-block.v2",
      knownSchemas: ["context-block.v1", "work-item.v1"],
    });
    expect(error).toBeInstanceOf(TaskContextError);
    expect(error.code).toBe("UNKNOWN_SCHEMA");
    expect(error.name).toBe("UnknownSchemaError");
    expect(error.schema).toBe("context-block.v2");
    expect(error.knownSchemas).toEqual(["context-block.v1", "work-item.v1"]);
    expect(error.message).toBe(
      'Unknown schema "context-block.v2". Use a published schema name or its $id (urn:task-context:schema:{name}); the names are: context-block.v1, work-item.v1.',
    );
  });

  it("recognises a copy from another bundle and nothing else", () => {
    const error = new UnknownSchemaError({ schema: "x", knownSchemas: [] });
    const foreign = {
      [Symbol.for("task-context.error")]: true,
      [Symbol.for("task-context.error.UnknownSchemaError")]: true,
    };
    expect(UnknownSchemaError.isInstance(foreign)).toBe(true);
    expect(TaskContextError.isInstance(error)).toBe(true);
    expect(UnknownSchemaError.isInstance(new Error("x"))).toBe(false);
    expect(
      UnknownSchemaError.isInstance(new TaskContextError({ code: "OTHER", message: "x" })),
    ).toBe(false);
  });
});
