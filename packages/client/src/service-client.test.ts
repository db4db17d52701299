// The client's methods are the generated table's: every method an operation names is one of the
// client's, and every method of the client calls an operation of the table.
import { describe, expect, it } from "vitest";
import { operations } from "./generated/operations.ts";
import { createServiceClient } from "./service-client.ts";

describe("the client's methods", () => {
  const client = createServiceClient({ url: "https://service.test" });
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(client))
    .filter((name) => name !== "constructor")
    .sort();
  const named = Object.values(operations)
    .flatMap((operation) => operation.client)
    .sort();

  it("are the methods the operations of the table name, each once", () => {
    expect(methods).toEqual(named);
  });

  it("leave out only the pages a browser opens", () => {
    const withoutMethod = Object.entries(operations)
      .filter(([, operation]) => operation.client.length === 0)
      .map(([id, operation]) => {
        const answers: Readonly<Record<string, readonly string[]>> = operation.responses;
        return `${id}: ${operation.method} ${operation.path} ${Object.values(answers).flat().join(" ")}`;
      });
    expect(withoutMethod).toEqual([
      "runPage: GET /runs/{run_id} text/html",
      "requeueFromPage: POST /runs/{run_id}/work-items/{id}/requeue ",
      "docs: GET /docs text/html",
    ]);
  });
});
