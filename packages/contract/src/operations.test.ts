import { describe, expect, it } from "vitest";
import type { OperationDefinition } from "./define-operation.ts";
import { pathParameterNames } from "./openapi.ts";
import { operations } from "./operations.ts";

const all = Object.values(operations) as OperationDefinition[];

describe("the operation registry", () => {
  it("keys each operation by its id", () => {
    expect(Object.entries(operations).filter(([key, operation]) => key !== operation.id)).toEqual(
      [],
    );
  });

  it("gives each operation a schema for exactly the parameters of its path", () => {
    for (const operation of all) {
      const schema = operation.input?.path;
      expect(Object.keys(schema?.shape ?? {}), operation.id).toEqual(
        pathParameterNames(operation.path),
      );
    }
  });

  it("names a client method at most once, and an MCP tool only for an agent's operation", () => {
    const methods = all.flatMap((operation) =>
      operation.client === undefined
        ? []
        : [operation.client.method, operation.client.streamMethod ?? []].flat(),
    );
    expect(methods.length).toBe(new Set(methods).size);
    for (const operation of all.filter((operation) => operation.mcp !== undefined)) {
      expect(operation.audience === "agent" || operation.audience === "admin or agent").toBe(true);
    }
  });
});
