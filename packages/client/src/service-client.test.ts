// The client's methods are the generated table's: every method an operation names is one of the
// client's, and every method of the client calls an operation of the table.
import { describe, expect, it } from "vitest";
import { handWrittenMethods } from "../scripts/method-generation.ts";
import { OperationMethods } from "./generated/methods.ts";
import { operations } from "./generated/operations.ts";
import { createServiceClient } from "./service-client.ts";

/** The methods of `prototype` and of the prototypes it inherits from (not Object's). */
function methodsOf(prototype: object | null): string[] {
  if (prototype === null || prototype === Object.prototype) return [];
  const own = Object.getOwnPropertyNames(prototype).filter((name) => name !== "constructor");
  return [...own, ...methodsOf(Object.getPrototypeOf(prototype))];
}

describe("the client's methods", () => {
  const client = createServiceClient({ url: "https://service.test" });
  const methods = methodsOf(Object.getPrototypeOf(client)).sort();
  const named = Object.values(operations)
    .flatMap((operation) => operation.client)
    .sort();

  it("are the methods the operations of the table name, each once", () => {
    expect(methods).toEqual(named);
  });

  it("are the generated plain ones and those written by hand for a reason, none both", () => {
    const client = createServiceClient({ url: "https://service.test" });
    const handWritten = Object.getOwnPropertyNames(Object.getPrototypeOf(client)).filter(
      (name) => name !== "constructor",
    );
    expect(handWritten.sort()).toEqual(Object.keys(handWrittenMethods).sort());
    const generated = methodsOf(OperationMethods.prototype);
    expect(generated.filter((name) => handWritten.includes(name))).toEqual([]);
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
