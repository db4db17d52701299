// Conformance of @task-context/contract's built output on Node 20, Node 24, Bun, Deno and workerd.
import {
  completeBody,
  deliveryErrorStatus,
  openApiDocument,
  operations,
} from "@task-context/contract";
import { describe, expect, it } from "vitest";

describe("@task-context/contract", () => {
  it("builds the OpenAPI document from its operations on every runtime", () => {
    const document = openApiDocument();
    const paths = document.paths as Record<string, Record<string, { operationId?: string }>>;
    const routed = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => [
        operation.operationId,
        method.toUpperCase(),
        path,
      ]),
    );
    const defined = Object.values(operations).map((operation) => [
      operation.id,
      operation.method,
      operation.path,
    ]);
    const order = (rows: unknown[][]) => rows.map((row) => JSON.stringify(row)).sort();
    expect(order(routed)).toEqual(order(defined));
    expect(JSON.stringify(openApiDocument())).toBe(JSON.stringify(document));
  });

  it("checks a completion with the service's own schema", () => {
    const completion = {
      attempt: 1,
      artifact: { media_type: "text/markdown", content: "# Lumen" },
    };
    expect(completeBody.safeParse(completion).success).toBe(true);
    expect(completeBody.safeParse({ ...completion, attempt: 0 }).success).toBe(false);
    expect(completeBody.safeParse({ ...completion, extra: true }).success).toBe(false);
  });

  it("defines each operation with its route, audience and error codes", () => {
    const { completeWorkItem } = operations;
    expect([completeWorkItem.method, completeWorkItem.path, completeWorkItem.audience]).toEqual([
      "POST",
      "/v1/work-items/{id}/complete",
      "agent",
    ]);
    expect(completeWorkItem.errors.map((code) => deliveryErrorStatus[code])).toEqual([
      400, 404, 409, 409, 422, 422, 409, 413, 415,
    ]);
  });
});
