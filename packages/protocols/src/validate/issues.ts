import * as z from "zod/mini";

/** One way a value breaks a schema. */
export interface ValidationIssue {
  /**
   * JSON Pointer (RFC 6901) of the field: `""` for the whole value, `"/project/path"` for a
   * nested one. A missing field's pointer says where it belongs; an unknown field's is its own.
   */
  path: string;
  /** A sentence that names the field, says what is wrong and what to write instead. */
  message: string;
}

/** The answer of `validate()`. */
export interface ValidationResult {
  /** True when the value conforms to the schema; `issues` is then empty. */
  valid: boolean;
  /** Every problem found, in schema order; at most 50, the last then saying how many more. */
  issues: ValidationIssue[];
}

/** How {@link checkValue} words its messages. */
interface IssueWording {
  /** Say "mapping", "list" and "text" (for YAML) instead of "object", "array" and "string". */
  yaml?: boolean;
  /** What the whole value is called, e.g. `"the block"` or `"taskData"` (default `"the value"`). */
  root?: string;
}

type Segment = string | number;
type Schema = z.core.$ZodType;
type Definition = Schema["_zod"]["def"] & Record<string, unknown>;

/** A JSON Pointer (RFC 6901) for a path of keys and indexes: `""` for the root, `/project/path`. */
export function toJsonPointer(path: readonly PropertyKey[]): string {
  let pointer = "";
  for (const segment of path) {
    pointer += `/${String(segment).replaceAll("~", "~0").replaceAll("/", "~1")}`;
  }
  return pointer;
}

/** The keys and indexes of a JSON Pointer made by {@link toJsonPointer}. */
export function fromJsonPointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** A short description of a value for messages: `the number 1`, `a list`, `nothing`. */
export function describeValue(value: unknown, { yaml = false }: IssueWording = {}): string {
  if (value === undefined || (value === null && yaml)) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    return `the ${yaml ? "text" : "string"} ${JSON.stringify(shown)}`;
  }
  if (typeof value === "number" || typeof value === "boolean") {
    return `the ${typeof value} ${String(value)}`;
  }
  if (Array.isArray(value)) return yaml ? "a list" : "an array";
  return typeof value === "object" ? (yaml ? "a mapping" : "an object") : typeof value;
}

/**
 * Checks `value` against a zod schema and explains every problem in a sentence at a JSON
 * Pointer. Besides the schema's own issues, a `__proto__` key of a record is refused: zod's
 * records skip such a key unchecked, where the published JSON Schemas refuse it (a strict
 * object's `__proto__` key is zod's own unknown field). At most 50 issues: the 50th says how many
 * more there are.
 */
export function checkValue<Output>(
  schema: z.core.$ZodType<Output>,
  value: unknown,
  wording: IssueWording = {},
): Checked<Output> {
  const result = (schema as z.ZodMiniType<Output>).safeParse(value);
  const issues = result.success
    ? []
    : result.error.issues.flatMap((issue) => explain(issue, schema, value, wording));
  const pointers = new Set(issues.map((issue) => issue.path));
  for (const path of prototypeKeys(schema, value)) {
    const issue = prototypeKeyIssue(path, wording);
    if (!pointers.has(issue.path)) issues.push(issue);
  }
  if (issues.length > MAX_ISSUES) {
    const more = issues.length - MAX_ISSUES + 1;
    issues.splice(MAX_ISSUES - 1, more, {
      path: "",
      message: `${more} more problems are not listed. Fix these first.`,
    });
  }
  return result.success && issues.length === 0
    ? { valid: true, data: result.data, issues: [] }
    : { valid: false, issues };
}

/** What {@link checkValue} found: the parsed value, or why there is none. */
type Checked<Output> =
  | { valid: true; data: Output; issues: [] }
  | { valid: false; issues: ValidationIssue[] };

/** The most issues reported for one value: a hostile one can have thousands of unknown fields. */
const MAX_ISSUES = 50;

/**
 * The issue for an own `__proto__` key at `path` (the key's own path): copied into another
 * object, such a key would replace that object's prototype.
 */
export function prototypeKeyIssue(
  path: readonly Segment[],
  wording: IssueWording = {},
): ValidationIssue {
  return {
    path: toJsonPointer(path),
    message: `${fieldLabel(path.slice(0, -1), wording)} may not have a key named "__proto__" (it would replace the prototype of objects it is copied into). Rename it.`,
  };
}

/** The schemas directly inside `schema`: fields, values, elements, options, wrapped schemas. */
function innerSchemas(schema: Schema): Schema[] {
  const def = definition(schema);
  const inner: unknown[] = [];
  switch (def.type) {
    case "object":
      inner.push(...Object.values(def.shape as object), def.catchall);
      break;
    case "record":
      inner.push(def.valueType);
      break;
    case "array":
      inner.push(def.element);
      break;
    case "tuple":
      inner.push(...(def.items as Schema[]), def.rest);
      break;
    case "union":
      inner.push(...(def.options as Schema[]));
      break;
    case "intersection":
      inner.push(def.left, def.right);
      break;
    case "pipe":
      inner.push(def.in);
      break;
    case "lazy":
      inner.push((def.getter as () => Schema)());
      break;
    default:
      inner.push(def.innerType);
  }
  return inner.filter((item): item is Schema => item !== undefined && item !== null);
}

const recordHolders = new WeakMap<Schema, boolean>();

/** Whether `schema` is or holds a record, the one place zod skips a `__proto__` key unchecked. */
function holdsRecord(schema: Schema): boolean {
  let holds = recordHolders.get(schema);
  if (holds === undefined) {
    const { type } = definition(schema);
    // A lazy schema may hold itself: assume it holds a record and let the walk look.
    holds = type === "record" || type === "lazy" || innerSchemas(schema).some(holdsRecord);
    recordHolders.set(schema, holds);
  }
  return holds;
}

/**
 * Paths of the own `__proto__` keys of `value`'s records, in breadth-first order. Only the parts
 * of `value` under a record of the schema are read, and each object once per schema (values may
 * share objects), so the walk reads no more than zod itself.
 */
function prototypeKeys(schema: Schema, value: unknown): Segment[][] {
  const found: Segment[][] = [];
  const visited = new Map<object, Set<Schema>>();
  const pending: Array<[Schema, object, Segment[]]> = [];
  const visit = (inner: Schema | undefined, child: unknown, path: Segment[]) => {
    if (inner === undefined || typeof child !== "object" || child === null) return;
    if (holdsRecord(inner)) pending.push([inner, child, path]);
  };
  visit(schema, value, []);
  for (let index = 0; index < pending.length; index++) {
    const [current, item, path] = pending[index] as [Schema, object, Segment[]];
    const schemas = visited.get(item) ?? new Set<Schema>();
    if (schemas.has(current)) continue;
    visited.set(item, schemas.add(current));
    const fields = item as Record<Segment, unknown>;
    const def = definition(current);
    switch (def.type) {
      case "record":
        if (Object.hasOwn(item, "__proto__")) found.push([...path, "__proto__"]);
        if (!holdsRecord(def.valueType as Schema)) break;
        for (const key of Object.keys(item)) {
          if (key !== "__proto__") visit(def.valueType as Schema, fields[key], [...path, key]);
        }
        break;
      case "object": {
        const shape = def.shape as Record<string, Schema>;
        for (const [key, field] of Object.entries(shape)) {
          if (Object.hasOwn(item, key)) visit(field, fields[key], [...path, key]);
        }
        const catchall = def.catchall as Schema | undefined;
        if (catchall === undefined || !holdsRecord(catchall)) break;
        for (const key of Object.keys(item)) {
          if (!Object.hasOwn(shape, key)) visit(catchall, fields[key], [...path, key]);
        }
        break;
      }
      case "array":
      case "tuple": {
        if (!Array.isArray(item)) break;
        const items = (def.items ?? []) as Schema[];
        const rest = (def.type === "array" ? def.element : def.rest) as Schema | undefined;
        if (!items.some(holdsRecord) && (rest === undefined || !holdsRecord(rest))) break;
        item.forEach((child, position) => {
          visit(items[position] ?? rest, child, [...path, position]);
        });
        break;
      }
      case "union": {
        const selected = selectedOption(current, item);
        for (const option of selected === undefined ? innerSchemas(current) : [selected]) {
          visit(option, item, path);
        }
        break;
      }
      default:
        for (const inner of innerSchemas(current)) visit(inner, item, path);
    }
  }
  return found;
}

/** `project.commands.test`, `context[2].type`, or `project.commands["a b"]`. */
function fieldLabel(path: readonly Segment[], wording: IssueWording = {}): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text === "" ? (wording.root ?? "the value") : text;
}

function valueAt(root: unknown, path: readonly Segment[]): unknown {
  let value = root;
  for (const segment of path) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, segment)) {
      return undefined;
    }
    value = (value as Record<Segment, unknown>)[segment];
  }
  return value;
}

const definition = (schema: Schema) => schema._zod.def as Definition;

function unwrap(schema: Schema): Schema {
  let current = schema;
  while (definition(current).type === "optional" || definition(current).type === "nullable") {
    current = definition(current).innerType as Schema;
  }
  return current;
}

/** The option of a discriminated union that `value`'s discriminator selects. */
function selectedOption(schema: Schema, value: unknown): Schema | undefined {
  const { options, discriminator } = definition(schema) as {
    options?: Schema[];
    discriminator?: string;
  };
  if (options === undefined || discriminator === undefined) return undefined;
  const wanted = (value as Record<string, unknown> | null)?.[discriminator];
  return options.find((option) => {
    const field = (definition(option).shape as Record<string, Schema> | undefined)?.[discriminator];
    return field !== undefined && (definition(field).values as unknown[]).includes(wanted);
  });
}

/** The schema of the value at `path`, following objects, records, arrays and unions. */
function schemaAt(root: Schema, rootValue: unknown, path: readonly Segment[]): Schema | undefined {
  let schema: Schema | undefined = unwrap(root);
  let value = rootValue;
  for (const segment of path) {
    if (schema === undefined) return undefined;
    schema = selectedOption(schema, value) ?? schema;
    const def = definition(schema);
    if (def.type === "object") schema = (def.shape as Record<string, Schema>)[segment];
    else if (def.type === "record") schema = def.valueType as Schema;
    else if (def.type === "array") schema = def.element as Schema;
    else return undefined;
    schema = schema === undefined ? undefined : unwrap(schema);
    value = valueAt(value, [segment]);
  }
  return schema === undefined ? undefined : (selectedOption(schema, value) ?? schema);
}

function checkOf(schema: Schema, name: string): Record<string, unknown> | undefined {
  const checks = (definition(schema).checks ?? []) as unknown as Schema[];
  return checks.map((check) => definition(check)).find((def) => def.check === name);
}

/** `a`, `a and b`, `a, b and c`. */
const listed = (names: readonly string[], last: "and" | "or") =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} ${last} ${names.at(-1)}`;

/** `"a"`, or `one of "a", "b" or "c"`. */
const quoted = (values: readonly unknown[]) => {
  const shown = values.map((value) => JSON.stringify(value));
  return shown.length === 1 ? (shown[0] as string) : `one of ${listed(shown, "or")}`;
};

/** `1 entry`, `2 entries`. */
const count = (size: number, one: string, many: string) => `${size} ${size === 1 ? one : many}`;

/** What a schema accepts, as a noun phrase: `non-empty text`, `a mapping with a and b`. */
function expectation(schema: Schema | undefined, wording: IssueWording): string | undefined {
  if (schema === undefined) return undefined;
  const { yaml = false } = wording;
  const def = definition(schema);
  const minimum = checkOf(schema, "min_length")?.minimum as number | undefined;
  switch (def.type) {
    case "string":
      if (minimum === 1) return yaml ? "non-empty text" : "a non-empty string";
      return yaml ? "text" : "a string";
    case "number": {
      const low = checkOf(schema, "greater_than");
      const high = checkOf(schema, "less_than");
      const bounds = [
        low === undefined ? "" : ` ${low.inclusive ? "≥" : ">"} ${low.value}`,
        high === undefined ? "" : ` ${high.inclusive ? "≤" : "<"} ${high.value}`,
      ].filter((bound) => bound !== "");
      return `a ${def.format === "safeint" ? "whole number" : "number"}${bounds.join(" and")}`;
    }
    case "boolean":
      return "true or false";
    case "literal":
      return quoted(def.values as unknown[]);
    case "enum":
      return quoted(Object.values(def.entries as object));
    case "array": {
      const noun = yaml ? "list" : "array";
      if (minimum === undefined) return yaml ? "a list" : "an array";
      if (minimum === 1) return `a non-empty ${noun}`;
      return `${yaml ? "a list" : "an array"} of at least ${count(minimum, "entry", "entries")}`;
    }
    case "record":
      return yaml ? "a mapping" : "an object";
    case "union": {
      const { discriminator, options } = def as unknown as {
        discriminator?: string;
        options: Schema[];
      };
      if (discriminator === undefined) return undefined;
      const values = options.flatMap(
        (option) =>
          definition((definition(option).shape as Record<string, Schema>)[discriminator] as Schema)
            .values as unknown[],
      );
      return `${yaml ? "a mapping" : "an object"} whose ${discriminator} is ${quoted(values)}`;
    }
    case "object": {
      const shape = def.shape as Record<string, Schema>;
      const keys = Object.keys(shape);
      const noun = yaml ? "a mapping" : "an object";
      if (keys.length > 5) return noun;
      const required = keys.filter((key) => definition(shape[key] as Schema).type !== "optional");
      const optional = keys.filter((key) => !required.includes(key));
      if (optional.length === 0) return `${noun} with ${listed(required, "and")}`;
      const optionally = `optionally, ${listed(optional, "and")}`;
      return required.length === 0
        ? `${noun} with, ${optionally}`
        : `${noun} with ${required.join(", ")} and, ${optionally}`;
    }
    default:
      return def.type;
  }
}

/** The schema's own description, as the second half of a sentence. */
function describedAs(schema: Schema | undefined): string {
  const description = schema === undefined ? undefined : z.globalRegistry.get(schema)?.description;
  return description === undefined
    ? ""
    : `, ${description.charAt(0).toLowerCase()}${description.slice(1)}`;
}

/** The field names a mapping allows, for "Unknown field" messages. */
function allowedKeys(schema: Schema | undefined): string[] {
  if (schema === undefined) return [];
  const def = definition(schema);
  if (def.type === "object") return Object.keys(def.shape as object);
  const keyValues = def.type === "record" ? (def.keyType as Schema)._zod.values : undefined;
  return keyValues === undefined ? [] : [...keyValues].map(String);
}

/** A field that differs only in case, `-`, `_` or spaces: `fullpath` → `fullPath`. */
function closestKey(key: string, allowed: readonly string[]): string | undefined {
  const fold = (name: string) => name.toLowerCase().replace(/[-_\s]/g, "");
  return allowed.find((field) => fold(field) === fold(key));
}

function explain(
  issue: z.core.$ZodIssue,
  schema: Schema,
  root: unknown,
  wording: IssueWording,
): ValidationIssue[] {
  const { yaml = false } = wording;
  const path = issue.path.map((segment) =>
    typeof segment === "number" ? segment : String(segment),
  );
  const at = (message: string, where: readonly Segment[] = path) => ({
    path: toJsonPointer(where),
    message,
  });
  const field = fieldLabel(path, wording);
  const actual = valueAt(root, path);
  const shown = describeValue(actual, wording);
  const target = schemaAt(schema, root, path);
  const missing = actual === undefined || (actual === null && yaml);
  if (missing && issue.code === "invalid_union" && "options" in issue) {
    return [at(`${field} is required: ${quoted(issue.options as unknown[])}.`)];
  }
  if (missing && issue.code !== "unrecognized_keys") {
    const expected = expectation(target, wording) ?? "a value";
    const description = path.length === 0 ? "" : describedAs(target);
    return [at(`${field} is required: ${expected}${description}.`)];
  }
  switch (issue.code) {
    case "invalid_type": {
      const expected = expectation(target, wording) ?? `a ${issue.expected}`;
      const quote =
        issue.expected === "string" && (typeof actual === "number" || typeof actual === "boolean")
          ? ` Quote it to make it ${yaml ? "text" : "a string"}: "${String(actual)}".`
          : "";
      return [at(`${field} must be ${expected}, not ${shown}.${quote}`)];
    }
    case "too_small":
    case "too_big": {
      const small = issue.code === "too_small";
      const bound = Number(small ? issue.minimum : issue.maximum);
      if (issue.origin === "string" && small && bound === 1) {
        return [at(`${field} must not be empty.`)];
      }
      const exact = issue.inclusive ?? true;
      const relation = small ? (exact ? "at least" : "more than") : exact ? "at most" : "less than";
      if (issue.origin === "array" || issue.origin === "string") {
        const [one, many] =
          issue.origin === "array" ? ["entry", "entries"] : ["character", "characters"];
        const size = (actual as { length: number }).length;
        return [at(`${field} must have ${relation} ${count(bound, one, many)}, not ${size}.`)];
      }
      return [at(`${field} must be ${relation} ${bound}, not ${shown}.`)];
    }
    case "invalid_format":
      return [at(`${field} ${issue.message}, not ${shown}.`)];
    case "invalid_value":
      return [at(`${field} must be ${quoted(issue.values)}, not ${shown}.`)];
    case "invalid_union":
      if ("options" in issue) {
        return [at(`${field} must be ${quoted(issue.options as unknown[])}, not ${shown}.`)];
      }
      return [
        at(`${field} must be ${expectation(target, wording) ?? "one of the allowed shapes"}.`),
      ];
    case "unrecognized_keys": {
      const allowed = allowedKeys(target);
      const where =
        path.length === 0 && wording.root === undefined ? "at the top level" : `in ${field}`;
      return issue.keys.map((key) => {
        const suggestion = closestKey(key, allowed);
        const hint = suggestion === undefined ? "" : ` Did you mean ${JSON.stringify(suggestion)}?`;
        const list = allowed.length === 0 ? "" : ` Allowed: ${allowed.join(", ")}.`;
        return at(`Unknown field ${JSON.stringify(key)} ${where}.${hint}${list}`, [...path, key]);
      });
    }
    case "invalid_key":
      return [
        at(
          `${fieldLabel(path.slice(0, -1), wording)} may not have a key named ${JSON.stringify(path.at(-1))}.`,
        ),
      ];
    default:
      return [at(`${field}: ${issue.message}.`)];
  }
}
