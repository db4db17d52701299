// Test helper (not part of the package API): the JSON fixtures of fixtures/{schema}/{valid,invalid}/.
import { readdirSync, readFileSync } from "node:fs";
import { type SchemaName, schemaNames } from "../schemas/registry.ts";
import type { ValidationIssue } from "../validate/issues.ts";

/** One fixture file. */
export interface Fixture {
  schema: SchemaName;
  /** `{schema}/{valid|invalid}/{case}`, for test names. */
  id: string;
  /** The file name without `.json`. */
  name: string;
  expectedValid: boolean;
  value: unknown;
}

/** The package's `fixtures/` folder. */
export const fixturesDirectory = new URL("../../fixtures/", import.meta.url);

function readJson(url: URL): unknown {
  return JSON.parse(readFileSync(url, "utf8"));
}

/** Every fixture of one schema, valid ones first, each group sorted by file name. */
export function fixturesOf(schema: SchemaName): Fixture[] {
  return (["valid", "invalid"] as const).flatMap((kind) => {
    const folder = new URL(`${schema}/${kind}/`, fixturesDirectory);
    return readdirSync(folder)
      .filter((file) => file.endsWith(".json"))
      .sort()
      .map((file) => {
        const name = file.slice(0, -".json".length);
        return {
          schema,
          id: `${schema}/${kind}/${name}`,
          name,
          expectedValid: kind === "valid",
          value: readJson(new URL(file, folder)),
        };
      });
  });
}

/** Every fixture of every published schema. */
export function allFixtures(): Fixture[] {
  return schemaNames.flatMap(fixturesOf);
}

/** `fixtures/{schema}/issues.json`: the exact issues `validate()` reports for each invalid fixture. */
export function expectedIssuesOf(schema: SchemaName): Record<string, ValidationIssue[]> {
  return readJson(new URL(`${schema}/issues.json`, fixturesDirectory)) as Record<
    string,
    ValidationIssue[]
  >;
}

/** A fresh copy of one fixture object, e.g. `fixtureObject("work-item.v1", "valid/task")`. */
export function fixtureObject(schema: SchemaName, file: string): Record<string, unknown> {
  return readJson(new URL(`${schema}/${file}.json`, fixturesDirectory)) as Record<string, unknown>;
}
