// The committed files of src/generated/ are what the generator makes from the service's document
// now: a change of the contract that was not regenerated fails here.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { firstDifference } from "../../../scripts/generated-files.ts";
import {
  generateCommand,
  generatedDirectory,
  generatedFiles,
  operationsOf,
} from "../scripts/client-generation.ts";
import { errorStatus, serviceDocument } from "../scripts/service-document.ts";

const packageRoot = new URL("../", import.meta.url);
const fix = `Run \`${generateCommand}\` in packages/client and commit the result.`;

describe("the generated files", async () => {
  const document = await serviceDocument();
  const files = await generatedFiles(document, errorStatus);

  it.each(files.map((file) => [file.path, file.content] as const))(
    "%s is what the service's document gives",
    (path, content) => {
      const committed = readFileSync(new URL(path, packageRoot), "utf8");
      expect(
        committed === content,
        `${path} differs, ${firstDifference(committed, content)}. ${fix}`,
      ).toBe(true);
    },
  );

  it("are all there is in src/generated/", () => {
    const committed = readdirSync(new URL(`${generatedDirectory}/`, packageRoot)).sort();
    expect(committed, fix).toEqual(files.map((file) => file.path.split("/").at(-1)).sort());
  });

  it("give every operation's JSON bodies a type the client names, or none (any JSON)", () => {
    // Bodies are references to the document's schemas, each checked against the contract's zod
    // type by generated-types.test.ts; an inline schema would escape that check.
    const inline: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const { requestBody, responses, operationId } = operation as {
          operationId: string;
          requestBody?: { content: Record<string, { schema?: Record<string, unknown> }> };
          responses: Record<
            string,
            { content?: Record<string, { schema?: Record<string, unknown> }> }
          >;
        };
        const bodies: [string, Record<string, unknown> | undefined][] = [
          ["request", requestBody?.content["application/json"]?.schema],
          ...Object.entries(responses)
            .filter(([status]) => Number(status) < 400)
            .map(
              ([status, response]) =>
                [status, response.content?.["application/json"]?.schema] as [
                  string,
                  Record<string, unknown> | undefined,
                ],
            ),
        ];
        for (const [which, schema] of bodies) {
          if (schema === undefined || typeof schema.$ref === "string") continue;
          const anyJson = Object.keys(schema).every((key) => key === "description");
          if (!anyJson) inline.push(`${operationId} (${method.toUpperCase()} ${path}) ${which}`);
        }
      }
    }
    expect(inline).toEqual([]);
  });

  it("list every operation of the document once in the table", () => {
    const ids = operationsOf(document).map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(0);
  });
});
