import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type SchemaName, schemaNames, schemaRegistry } from "../schemas/registry.ts";
import { getValidator as runtimeValidator } from "./runtime-validators.ts";
import { getValidator as standaloneValidator } from "./standalone-validators.ts";
import { allFixtures, fixturesOf } from "./test-fixtures.ts";

const schemaName = fc.constantFrom(...schemaNames);

/** A JSON value with the keys the schemas know, so that random values get past the first check. */
function jsonValue(schema: SchemaName): fc.Arbitrary<unknown> {
  const knownKeys = [
    ...new Set(
      fixturesOf(schema).flatMap(
        (fixture) => JSON.stringify(fixture.value).match(/"[^"]*":/g) ?? [],
      ),
    ),
  ].map((key) => JSON.parse(key.slice(0, -1)) as string);
  knownKeys.push("__proto__", "constructor");
  const key = fc.oneof(fc.constantFrom(...knownKeys), fc.string());
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.constant(null),
      fc.boolean(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: -2, max: 20_000 }),
      fc.string(),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(key, tie("value"), { maxKeys: 6 }),
    ),
  })).value;
}

/**
 * True when `value` holds an own `__proto__` property: zod's `z.record` skips such an entry
 * without checking it (so that it cannot replace the prototype of its output), whereas JSON
 * Schema validates it like any other property. The one known divergence between zod and the
 * published schemas; see the test "differs from zod only on a __proto__ record key".
 */
function hasProtoKey(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  if (Object.hasOwn(value, "__proto__")) return true;
  return Object.values(value).some(hasProtoKey);
}

type Path = Array<string | number>;

/** Every path to a value inside `value`, the root included. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const paths: Path[] = [prefix];
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) paths.push(...pathsOf(item, [...prefix, index]));
  } else if (value !== null && typeof value === "object")
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  return paths;
}

type Mutation =
  | { kind: "replace"; with: unknown }
  | { kind: "delete" }
  | { kind: "add"; key: string; with: unknown };

/** A copy of `value` with one change at `path`. */
function mutate(value: unknown, path: Path, mutation: Mutation): unknown {
  const copy = structuredClone(value);
  if (path.length === 0) {
    if (mutation.kind === "replace") return mutation.with;
    if (
      mutation.kind === "add" &&
      copy !== null &&
      typeof copy === "object" &&
      !Array.isArray(copy)
    )
      Object.defineProperty(copy, mutation.key, {
        value: mutation.with,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return copy;
  }
  let parent = copy as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1))
    parent = parent[segment] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (mutation.kind === "replace") parent[last] = mutation.with;
  else if (mutation.kind === "delete") {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (target !== null && typeof target === "object" && !Array.isArray(target))
      Object.defineProperty(target, mutation.key, {
        value: mutation.with,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return copy;
}

describe("runtime and standalone validators", () => {
  it("know the same schemas: every published one", () => {
    for (const name of schemaNames) {
      expect(typeof runtimeValidator(name)).toBe("function");
      expect(typeof standaloneValidator(name)).toBe("function");
    }
  });

  it.each(allFixtures().map((fixture) => [fixture.id, fixture] as const))(
    "give the same answer for %s",
    (_, fixture) => {
      const standalone = standaloneValidator(fixture.schema)(fixture.value);
      expect(runtimeValidator(fixture.schema)(fixture.value)).toEqual(standalone);
      expect(standalone.valid).toBe(fixture.expectedValid);
    },
  );

  it("give the same answer for random JSON values", () => {
    fc.assert(
      fc.property(schemaName, fc.jsonValue(), (name, value) => {
        expect(runtimeValidator(name)(value)).toEqual(standaloneValidator(name)(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it("give the same answer as each other, and the same verdict as zod, for mutated fixtures", () => {
    const cases = fc
      .tuple(schemaName, fc.nat(), fc.nat())
      .chain(([name, fixtureIndex, pathIndex]) => {
        const fixtures = fixturesOf(name).filter((fixture) => fixture.expectedValid);
        const fixture = fixtures[fixtureIndex % fixtures.length];
        const paths = pathsOf(fixture?.value);
        const path = paths[pathIndex % paths.length] ?? [];
        const mutation: fc.Arbitrary<Mutation> = fc.oneof(
          jsonValue(name).map((value) => ({ kind: "replace" as const, with: value })),
          fc.constant({ kind: "delete" as const }),
          fc
            .tuple(fc.string(), jsonValue(name))
            .map(([key, value]) => ({ kind: "add" as const, key, with: value })),
        );
        return mutation.map((change) => ({ name, value: mutate(fixture?.value, path, change) }));
      });
    let valid = 0;
    fc.assert(
      fc.property(cases, ({ name, value }) => {
        const standalone = standaloneValidator(name)(value);
        expect(runtimeValidator(name)(value)).toEqual(standalone);
        expect(standalone.issues.length === 0).toBe(standalone.valid);
        if (!hasProtoKey(value))
          expect(standalone.valid).toBe(schemaRegistry[name].safeParse(value).success);
        if (standalone.valid) valid++;
      }),
      { numRuns: 3_000 },
    );
    // The mutations must not all be rejected for the same obvious reason.
    expect(valid).toBeGreaterThan(600); // about 1 200 in practice
  });

  it("differs from zod only on a __proto__ record key, which zod skips unchecked", () => {
    const block = JSON.parse(
      '{"version":1,"project":{"path":"/srv/app","stack":"hono","commands":{"__proto__":5}},"conventions":{"summary":"ESM only."}}',
    );
    const expected = {
      valid: false,
      issues: [{ path: "/project/commands/__proto__", message: "must be string" }],
    };
    expect(standaloneValidator("context-block.v1")(block)).toEqual(expected);
    expect(runtimeValidator("context-block.v1")(block)).toEqual(expected);
    expect(schemaRegistry["context-block.v1"].safeParse(block)).toMatchObject({
      success: true,
      data: { project: { commands: {} } },
    });
  });
});
