import { describe, expect, it } from "vitest";
import type { OperationDefinition } from "./define-operation.ts";
import { deliveryErrorStatus, errorExamples } from "./errors.ts";
import { audienceErrors, openApiDocument } from "./openapi.ts";
import { operations } from "./operations.ts";

const document = openApiDocument();
const all = Object.values(operations) as OperationDefinition[];

type Json = Record<string, unknown>;
const entry = (operation: OperationDefinition) =>
  document.paths[operation.path]?.[operation.method.toLowerCase()] as Json;

/** Every `$ref` anywhere under `value`. */
function references(value: unknown): string[] {
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, member]) =>
    key === "$ref" && typeof member === "string" ? [member] : references(member),
  );
}

describe("openApiDocument", () => {
  it("lists each operation of the registry once, at its method and path", () => {
    const listed = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, value]) => ({
        method: method.toUpperCase(),
        path,
        id: (value as Json).operationId,
      })),
    );
    expect(listed).toEqual(all.map(({ method, path, id }) => ({ method, path, id })));
  });

  it("names each operation's typed-client method and audience in its extensions", () => {
    expect(entry(operations.completeWorkItem)).toMatchObject({
      "x-task-context-client": "complete",
      "x-task-context-audience": "agent",
    });
    expect(entry(operations.listEvents)).toMatchObject({
      "x-task-context-client": "listEvents",
      "x-task-context-client-stream": "followEvents",
      "x-task-context-audience": "admin or agent",
    });
    expect(entry(operations.docs)["x-task-context-client"]).toBeUndefined();
  });

  it("documents an operation's own error codes and its audience's, with an example of each", () => {
    for (const operation of all) {
      const codes = new Set([...(operation.errors ?? []), ...audienceErrors[operation.audience]]);
      const responses = entry(operation).responses as Record<string, Json>;
      const documented = Object.entries(responses)
        .filter(([status]) => Number(status) >= 400)
        .flatMap(([status, response]) => {
          const json = (response.content as Record<string, Json>)["application/json"] as Json;
          const examples = json.examples as Record<string, { value: { code: string } }>;
          for (const [code, example] of Object.entries(examples)) {
            expect(example.value.code, `${operation.id} ${code}`).toBe(code);
            expect(deliveryErrorStatus[code as keyof typeof deliveryErrorStatus]).toBe(
              Number(status),
            );
            expect(example.value).toMatchObject(errorExamples[code as keyof typeof errorExamples]);
          }
          return Object.keys(examples);
        });
      expect(documented.sort(), operation.id).toEqual([...codes].sort());
    }
  });

  it("refers only to schemas it holds as components", () => {
    const components = document.components as { schemas: Json };
    const missing = references(document).filter(
      (reference) => !(reference.replace("#/components/schemas/", "") in components.schemas),
    );
    expect(missing).toEqual([]);
    expect(Object.keys(components.schemas)).toContain("Error");
  });

  it("takes the server it names, by default the one serving it", () => {
    expect(document.servers).toEqual([
      { url: "/", description: "The service that serves this document" },
    ]);
    expect(openApiDocument({ serverUrl: "https://tc.example.com" }).servers).toEqual([
      { url: "https://tc.example.com", description: "The service" },
    ]);
  });
});
