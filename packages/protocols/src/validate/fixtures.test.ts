import { readFileSync } from "node:fs";
import {
  validate as hyperjumpValidate,
  registerSchema,
  type SchemaObject,
  type Validator,
} from "@hyperjump/json-schema/draft-2020-12";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { type SchemaName, schemaIdOf, schemaNames, schemaRegistry } from "../schemas/registry.ts";
import { allFixtures, expectedIssuesOf, fixturesOf } from "./test-fixtures.ts";
import { validate } from "./validate.ts";

const publishedSchema = (name: SchemaName) =>
  JSON.parse(
    readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), "utf8"),
  ) as SchemaObject;

// An ajv of its own, with ajv's defaults (first error only) but the strictness zod's output needs:
// the verdict must not depend on the options validate() uses. `date-time` is declared known and
// not asserted (an annotation, as draft 2020-12 has it); zod's `pattern` beside it decides.
const ajv = new Ajv2020({
  strict: true,
  allowUnionTypes: true,
  strictTuples: false,
  formats: { "date-time": true },
});
for (const name of schemaNames) ajv.addSchema(publishedSchema(name));

beforeAll(() => {
  // A second, independent implementation of draft 2020-12, which also checks each schema
  // against the 2020-12 meta-schema.
  for (const name of schemaNames) registerSchema(publishedSchema(name), schemaIdOf(name));
});

describe("fixtures", () => {
  it("cover every published schema with several valid and several invalid values", () => {
    for (const name of schemaNames) {
      const fixtures = fixturesOf(name);
      expect.soft(fixtures.filter((fixture) => fixture.expectedValid).length).toBeGreaterThan(1);
      expect.soft(fixtures.filter((fixture) => !fixture.expectedValid).length).toBeGreaterThan(2);
    }
  });

  describe.each(allFixtures())("$id", (fixture) => {
    const expected = fixture.expectedValid;

    it(`is ${expected ? "valid" : "invalid"} for ajv (Ajv2020)`, () => {
      const check = ajv.getSchema(schemaIdOf(fixture.schema));
      expect(check?.(fixture.value)).toBe(expected);
    });

    it(`is ${expected ? "valid" : "invalid"} for @hyperjump/json-schema`, async () => {
      const output = await hyperjumpValidate(
        schemaIdOf(fixture.schema),
        fixture.value as Parameters<Validator>[0],
      );
      expect(output.valid).toBe(expected);
    });

    it(`is ${expected ? "valid" : "invalid"} for the zod schema`, () => {
      expect(schemaRegistry[fixture.schema].safeParse(fixture.value).success).toBe(expected);
    });

    it(
      expected
        ? "is valid for validate()"
        : "gets exactly the issues of issues.json from validate()",
      () => {
        const issues = expected ? [] : expectedIssuesOf(fixture.schema)[fixture.name];
        expect(issues, `no entry "${fixture.name}" in issues.json`).toBeDefined();
        expect(validate(fixture.schema, fixture.value)).toEqual({ valid: expected, issues });
        if (!expected) expect(issues).toHaveLength(1); // each invalid fixture breaks one rule
      },
    );
  });

  it("list no issues for a fixture that does not exist", () => {
    for (const name of schemaNames) {
      const invalid = new Set(
        fixturesOf(name)
          .filter((fixture) => !fixture.expectedValid)
          .map((fixture) => fixture.name),
      );
      expect(Object.keys(expectedIssuesOf(name)).sort()).toEqual([...invalid].sort());
    }
  });
});
