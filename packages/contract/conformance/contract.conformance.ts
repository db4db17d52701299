// Conformance of @task-context/contract's built output on Node 20, Node 24, Bun, Deno and workerd.
import {
  completeBody,
  deliveryErrorStatus,
  openApiDocument,
  operations,
} from "@task-context/contract";
import { describe, expect, it } from "vitest";

describe("@task-context/contract", () => {
  it("builds the same OpenAPI document on every runtime", () => {
    const document = openApiDocument();
    expect(Object.keys(document.paths)).toHaveLength(22);
    expect(JSON.stringify(document).length).toBe(159_508);
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
      400, 404, 409, 409, 422, 422, 413, 415,
    ]);
  });
});
