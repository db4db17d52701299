import { describe, expect, it } from "vitest";
import { contractSuites } from "../contract/suites.ts";
import { ContractChecker, checkedServices } from "../openapi/contract-checker.ts";
import { servedDocument } from "../openapi/document.ts";
import { inProcess, overSocket } from "./services.ts";

// Every answer of the suites is checked against the service's OpenAPI document as it arrives.
const checker = new ContractChecker(await servedDocument());

describe("on Node, in process (app.request), SQLite in memory", () => {
  contractSuites(checkedServices(inProcess, checker));
});

describe("on Node, over a socket (127.0.0.1), SQLite file", () => {
  contractSuites(checkedServices(overSocket, checker));
});

describe("the contract suites", () => {
  it("exercise every operation of the OpenAPI document", () => {
    expect(checker.unexercised()).toEqual([]);
  });

  it("exercise every success and every state (409, 422) an operation declares", () => {
    const missing = checker.operations.flatMap((operation) =>
      operation.statuses
        .filter((status) => /^(2..|409|422)$/.test(status))
        .filter((status) => !checker.exercised.get(operation.id)?.has(Number(status)))
        .map((status) => `${operation.id} ${status}`),
    );
    expect(missing).toEqual([]);
  });
});
