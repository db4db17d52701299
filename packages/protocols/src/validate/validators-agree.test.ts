import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contextBlockSchema } from "../schemas/context-block.ts";
import { type SchemaName, schemaNames, schemaRegistry } from "../schemas/registry.ts";
import { mutatedValue, validValue } from "../test-support/json-schema-arbitrary.ts";
import {
  ajvVerdict,
  hyperjumpVerdict,
  publishedSchema,
} from "../test-support/json-schema-validators.ts";
import { validate } from "./validate.ts";

/** The three verdicts on one value: validate() (zod), ajv and @hyperjump/json-schema. */
async function verdicts(name: SchemaName, value: unknown) {
  return {
    validate: validate(name, value).valid,
    ajv: ajvVerdict(name, value),
    hyperjump: await hyperjumpVerdict(name, value),
  };
}

describe.each(schemaNames)("%s", (name) => {
  const schema = publishedSchema(name);

  it("is accepted by validate(), ajv and @hyperjump/json-schema for values built from it (fuzzed)", async () => {
    await fc.assert(
      fc.asyncProperty(validValue(schema), async (value) => {
        expect(await verdicts(name, value)).toEqual({ validate: true, ajv: true, hyperjump: true });
      }),
      { numRuns: 150 },
    );
  });

  it("gets the same verdict from all three for mutations: missing fields, wrong types, extra keys, bounds (fuzzed)", async () => {
    let invalid = 0;
    await fc.assert(
      fc.asyncProperty(mutatedValue(schema), async (value) => {
        const answer = await verdicts(name, value);
        expect(answer).toEqual({
          validate: answer.ajv,
          ajv: answer.ajv,
          hyperjump: answer.ajv,
        });
        expect(validate(name, value).issues.length === 0).toBe(answer.validate);
        if (!answer.ajv) invalid++;
      }),
      { numRuns: 300 },
    );
    // Both verdicts must be well represented: many mutations break the value, some (an optional
    // field deleted, a string replaced by another) do not.
    expect(invalid).toBeGreaterThan(90);
    expect(invalid).toBeLessThan(300);
  });
});

describe("__proto__ keys", () => {
  const block = JSON.parse(
    '{"version":1,"project":{"path":"/srv/app","stack":"hono","commands":{"__proto__":"x"}},"conventions":{"summary":"ESM only."}}',
  );

  it("are refused by validate() and both JSON Schema validators", async () => {
    expect(await verdicts("context-block.v1", block)).toEqual({
      validate: false,
      ajv: false,
      hyperjump: false,
    });
    expect(validate("context-block.v1", block).issues).toEqual([
      {
        path: "/project/commands/__proto__",
        message:
          'project.commands may not have a key named "__proto__" (it would replace the prototype of objects it is copied into). Rename it.',
      },
    ]);
  });

  it("are dropped unchecked by the zod schema alone, as its description says", () => {
    expect(contextBlockSchema.safeParse(block)).toMatchObject({
      success: true,
      data: { project: { commands: {} } },
    });
    expect(publishedSchema("context-block.v1").description).toContain(
      'Command names may not be "__proto__"',
    );
  });

  it("are refused as a subagent type of the limits file, which zod's record alone drops", async () => {
    const limits = JSON.parse('{"overrides":{"__proto__":{"max_total":1}}}');
    expect(await verdicts("context-limits.v1", limits)).toEqual({
      validate: false,
      ajv: false,
      hyperjump: false,
    });
    expect(schemaRegistry["context-limits.v1"].safeParse(limits).success).toBe(true);
    expect(publishedSchema("context-limits.v1").description).toContain(
      '"__proto__" is not a subagent type',
    );
  });

  it("are refused in a strict object by zod as an unknown field", () => {
    const value = JSON.parse(
      '{"version":1,"project":{"path":"/a","stack":"s","__proto__":{}},"conventions":{"summary":"s"}}',
    );
    expect(validate("context-block.v1", value).issues).toEqual([
      {
        path: "/project/__proto__",
        message: 'Unknown field "__proto__" in project. Allowed: path, stack, commands.',
      },
    ]);
  });
});
