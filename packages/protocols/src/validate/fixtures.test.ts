import { describe, expect, it } from "vitest";
import { schemaNames, schemaRegistry } from "../schemas/registry.ts";
import { allFixtures, expectedIssuesOf, fixturesOf } from "../test-support/fixtures.ts";
import { ajvVerdict, hyperjumpVerdict } from "../test-support/json-schema-validators.ts";
import { validate } from "./validate.ts";

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
      expect(ajvVerdict(fixture.schema, fixture.value)).toBe(expected);
    });

    it(`is ${expected ? "valid" : "invalid"} for @hyperjump/json-schema`, async () => {
      expect(await hyperjumpVerdict(fixture.schema, fixture.value)).toBe(expected);
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
