import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { checkValue } from "./issues.ts";

const PROTOTYPE_KEY =
  'may not have a key named "__proto__" (it would replace the prototype of objects it is copied into). Rename it.';

describe("checkValue: __proto__ keys", () => {
  const tagged = z.array(z.strictObject({ tags: z.record(z.string(), z.string()) }));

  it("refuses one in a record inside an array, at its pointer", () => {
    const value = JSON.parse('[{"tags":{"a":"b"}},{"tags":{"__proto__":"x"}}]');
    expect(tagged.safeParse(value).success).toBe(true);
    expect(checkValue(tagged, value)).toEqual({
      valid: false,
      issues: [{ path: "/1/tags/__proto__", message: `[1].tags ${PROTOTYPE_KEY}` }],
    });
  });

  it("reports a record shared by many items once, at its first place", () => {
    const tags = JSON.parse('{"__proto__":"x"}');
    const value = new Array(10_000).fill(null).map(() => ({ tags }));
    expect(checkValue(tagged, value)).toEqual({
      valid: false,
      issues: [{ path: "/0/tags/__proto__", message: `[0].tags ${PROTOTYPE_KEY}` }],
    });
  });

  it("follows the branch a discriminated union selects, and every branch of a plain union", () => {
    const discriminated = z.discriminatedUnion("kind", [
      z.strictObject({ kind: z.literal("a"), names: z.record(z.string(), z.string()) }),
      z.strictObject({ kind: z.literal("b"), names: z.array(z.string()) }),
    ]);
    const value = JSON.parse('{"kind":"a","names":{"__proto__":"x"}}');
    expect(checkValue(discriminated, value).issues).toEqual([
      { path: "/names/__proto__", message: `names ${PROTOTYPE_KEY}` },
    ]);
    const plain = z.union([z.string(), z.record(z.string(), z.number())]);
    expect(checkValue(plain, JSON.parse('{"__proto__":1}')).issues).toEqual([
      { path: "/__proto__", message: `the value ${PROTOTYPE_KEY}` },
    ]);
  });

  it("follows optional, nullable and lazy schemas down to a record", () => {
    interface Node {
      labels?: Record<string, string> | null | undefined;
      children: Node[];
    }
    const node: z.ZodMiniType<Node> = z.strictObject({
      labels: z.optional(z.nullable(z.record(z.string(), z.string()))),
      children: z.array(z.lazy(() => node)),
    });
    const value = JSON.parse(
      '{"children":[{"labels":null,"children":[{"labels":{"__proto__":"x"},"children":[]}]}]}',
    );
    expect(checkValue(node, value).issues).toEqual([
      {
        path: "/children/0/children/0/labels/__proto__",
        message: `children[0].children[0].labels ${PROTOTYPE_KEY}`,
      },
    ]);
  });

  it("accepts one where the schema takes any key, as a JSON Schema with additionalProperties does", () => {
    const loose = z.looseObject({ name: z.string() });
    const value = JSON.parse('{"name":"n","__proto__":{"polluted":true}}');
    expect(checkValue(loose, value)).toMatchObject({ valid: true, issues: [] });
  });

  it("adds none to zod's own unknown-field issue in a strict object", () => {
    const strict = z.strictObject({ names: z.optional(z.record(z.string(), z.string())) });
    expect(checkValue(strict, JSON.parse('{"__proto__":{}}')).issues).toEqual([
      {
        path: "/__proto__",
        message: 'Unknown field "__proto__" at the top level. Allowed: names.',
      },
    ]);
  });
});
