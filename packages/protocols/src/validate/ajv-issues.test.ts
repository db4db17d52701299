import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { issuesFromAjvErrors } from "./ajv-issues.ts";
import { ajvOptions } from "./ajv-options.ts";

const ajv = new Ajv2020(ajvOptions);

/** A list of shapes: a discriminated union inside an array inside an object. */
const shapes = ajv.compile({
  type: "object",
  properties: {
    shapes: {
      type: "array",
      items: {
        oneOf: [
          {
            type: "object",
            properties: { kind: { const: "circle" }, radius: { type: "number" } },
            required: ["kind", "radius"],
            additionalProperties: false,
          },
          {
            type: "object",
            properties: { kind: { const: "square" }, side: { type: "number" } },
            required: ["kind", "side"],
            additionalProperties: false,
          },
        ],
      },
    },
  },
  required: ["shapes"],
  additionalProperties: false,
});

function issuesOf(value: unknown) {
  shapes(value);
  return issuesFromAjvErrors(shapes.errors);
}

describe("issuesFromAjvErrors", () => {
  it("returns no issues for no errors", () => {
    expect(issuesFromAjvErrors(null)).toEqual([]);
    expect(issuesFromAjvErrors(undefined)).toEqual([]);
    expect(issuesFromAjvErrors([])).toEqual([]);
  });

  it("keeps only the branch each item's discriminator selects, item by item", () => {
    const items = Array.from({ length: 11 }, () => ({ kind: "circle", radius: 1 }));
    items[1] = { kind: "square", side: "2" } as never;
    items[10] = { kind: "circle" } as never;
    expect(issuesOf({ shapes: items })).toEqual([
      { path: "/shapes/1/side", message: "must be number" },
      { path: "/shapes/10", message: "must have required property 'radius'" },
    ]);
  });

  it("lists the discriminator's allowed values when none matches", () => {
    expect(issuesOf({ shapes: [{ kind: "triangle" }] })).toEqual([
      {
        path: "/shapes/0/kind",
        message: 'must be equal to one of the allowed values: "circle", "square"',
      },
    ]);
  });

  it("reports what every branch agrees on when the discriminator is missing", () => {
    expect(issuesOf({ shapes: [{}] })).toEqual([
      { path: "/shapes/0", message: "must have required property 'kind'" },
    ]);
    expect(issuesOf({ shapes: [{ radius: 1, side: 1 }] })).toEqual([
      { path: "/shapes/0", message: "must have required property 'kind'" },
    ]);
  });

  it("falls back to ajv's union message when the branches agree on nothing", () => {
    const stringOrCount = ajv.compile({
      oneOf: [
        { type: "string", minLength: 2 },
        { type: "integer", minimum: 5 },
      ],
    });
    stringOrCount(true);
    expect(issuesFromAjvErrors(stringOrCount.errors)).toEqual([
      { path: "", message: "must match exactly one schema in oneOf" },
    ]);
  });
});
