// Test helper: fast-check arbitraries built from the published JSON Schemas — values each schema
// accepts, and mutations of them that may not be accepted — so that validators can be compared
// on far more than the fixtures.
import fc from "fast-check";

/** A JSON Schema made of the keywords the published schemas use. */
export type JsonSchema = {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  minLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
};

/** Strings that trip parsers and escapers. */
const oddStrings = [
  "",
  " ",
  "__proto__",
  "constructor",
  "toString",
  "\u0000",
  "\ud800",
  "\ufeff",
  "\u2028",
  "a\r\nb",
  "😀",
  "e\u0301",
  "../x",
  "/abs",
  "C:\\x",
  "2026-11-20T10:15:30Z",
  "2026-02-29T10:15:30Z",
  "1",
];

const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.constantFrom(...oddStrings),
);

function stringValue(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === "date-time") {
    const instant = fc
      .date({
        min: new Date("0000-01-01T00:00:00Z"),
        max: new Date("9999-12-31T23:59:59Z"),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString());
    return fc.oneof(
      instant,
      instant.map((text) => text.replace(/\.\d+Z$/, "Z")),
      instant.map((text) => text.replace(/Z$/, "+05:30")),
    );
  }
  // The one pattern with a look-ahead (fast-check cannot generate from those): record keys.
  if (schema.pattern === "^(?!__proto__$)") return anyString.filter((key) => key !== "__proto__");
  if (schema.pattern !== undefined) return fc.stringMatching(new RegExp(schema.pattern));
  const minLength = schema.minLength ?? 0;
  return anyString.filter((text) => [...text].length >= minLength);
}

function numberValue(schema: JsonSchema): fc.Arbitrary<number> {
  const integer = schema.type === "integer";
  const low = schema.exclusiveMinimum === undefined ? schema.minimum : schema.exclusiveMinimum + 1;
  const min = low ?? (integer ? Number.MIN_SAFE_INTEGER : -1e6);
  const max = schema.maximum ?? (integer ? Number.MAX_SAFE_INTEGER : 1e6);
  if (integer) {
    return fc.oneof(
      fc.integer({ min, max: Math.min(max, min + 20_000) }),
      fc.constantFrom(min, max),
    );
  }
  return fc.oneof(
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(min, max),
  );
}

function objectValue(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const fields = fc.record(
    Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, validValue(value)])),
    { requiredKeys: schema.required ?? [] },
  );
  const extra = schema.additionalProperties;
  if (typeof extra !== "object") return fields;
  const key =
    schema.propertyNames === undefined
      ? anyString
      : (validValue(schema.propertyNames) as fc.Arbitrary<string>);
  return fc
    .tuple(fields, fc.dictionary(key, validValue(extra), { maxKeys: 3, noNullPrototype: true }))
    .map(([known, more]) => ({ ...more, ...known }));
}

/** Values that `schema` accepts. */
export function validValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  if ("const" in schema) return fc.constant(schema.const);
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  if (schema.oneOf !== undefined) return fc.oneof(...schema.oneOf.map(validValue));
  switch (schema.type) {
    case "string":
      return stringValue(schema);
    case "integer":
    case "number":
      return numberValue(schema);
    case "boolean":
      return fc.boolean();
    case "array": {
      const minLength = schema.minItems ?? 0;
      const items = schema.items === undefined ? fc.jsonValue() : validValue(schema.items);
      return fc.array(items, { minLength, maxLength: minLength + 3 });
    }
    case "object":
      return objectValue(schema);
    default:
      throw new Error(`validValue: unsupported schema ${JSON.stringify(schema).slice(0, 200)}`);
  }
}

type Path = Array<string | number>;

/** Every path to a value inside `value`, the root included. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const paths: Path[] = [prefix];
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) paths.push(...pathsOf(item, [...prefix, index]));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  }
  return paths;
}

/** A JSON value that is likely the wrong type or just past a bound somewhere. */
const replacement = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -0,
    1,
    -1,
    0.5,
    10,
    10.5,
    11,
    2 ** 53,
    Number.MAX_SAFE_INTEGER,
    [],
    {},
    [""],
    { a: 1 },
  ),
  anyString,
  fc.jsonValue({ maxDepth: 2 }),
);

type Mutation =
  | { kind: "replace"; with: unknown }
  | { kind: "delete" }
  | { kind: "add"; key: string; with: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  replacement.map((value) => ({ kind: "replace" as const, with: value })),
  fc.constant({ kind: "delete" as const }),
  fc
    .tuple(fc.oneof(anyString, fc.constantFrom("__proto__", "constructor", "kind")), replacement)
    .map(([key, value]) => ({ kind: "add" as const, key, with: value })),
);

function defineOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A copy of `value` with one change at `path` (an own `__proto__` key is added as such). */
function mutate(value: unknown, path: Path, change: Mutation): unknown {
  // JSON has no "nothing": a deleted root is null.
  if (path.length === 0 && change.kind === "delete") return null;
  const root = { value: structuredClone(value) };
  const full: Path = ["value", ...path];
  let parent = root as Record<string | number, unknown>;
  for (const segment of full.slice(0, -1))
    parent = parent[segment] as Record<string | number, unknown>;
  const last = full.at(-1) as string | number;
  if (change.kind === "replace") parent[last] = change.with;
  else if (change.kind === "delete") {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (target !== null && typeof target === "object" && !Array.isArray(target)) {
      defineOwn(target, change.key, change.with);
    }
  }
  return root.value;
}

/** A value `schema` accepts with one change: a field missing, replaced or added. */
export function mutatedValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  return validValue(schema).chain((value) => {
    const paths = pathsOf(value);
    return fc
      .tuple(fc.constantFrom(...paths), mutation)
      .map(([path, change]) => mutate(value, path, change));
  });
}
