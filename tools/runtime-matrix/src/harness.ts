// Conformance harness for the runtime matrix.
//
// This file is bundled into every conformance run, including on workerd without nodejs_compat:
// it must not import node:* (or anything else) and must only use what all five runtimes have.

export type Runtime = "node20" | "node24" | "bun" | "deno" | "workerd";

/** Every runtime of the matrix, in the order the table shows them. */
export const RUNTIMES: readonly Runtime[] = ["node20", "node24", "bun", "deno", "workerd"];

export interface ConformanceCase {
  name: string;
  run: () => void | Promise<void>;
}

export interface ConformanceSuite {
  package: string;
  runtimes: readonly Runtime[];
  cases: readonly ConformanceCase[];
}

export interface CaseResult {
  name: string;
  passed: boolean;
  error?: string;
  durationMs: number;
}

/** Declares a suite. `runtimes` defaults to all five. */
export function defineSuite(suite: {
  package: string;
  runtimes?: readonly Runtime[];
  cases: readonly ConformanceCase[];
}): ConformanceSuite {
  if (typeof suite?.package !== "string" || suite.package === "") {
    throw new TypeError("defineSuite: `package` must be a non-empty string");
  }
  if (!Array.isArray(suite.cases)) {
    throw new TypeError("defineSuite: `cases` must be an array");
  }
  for (const c of suite.cases) {
    if (typeof c?.name !== "string" || typeof c.run !== "function") {
      throw new TypeError("defineSuite: every case needs a string `name` and a function `run`");
    }
  }
  const runtimes = suite.runtimes ?? RUNTIMES;
  for (const r of runtimes) {
    if (!RUNTIMES.includes(r)) {
      throw new TypeError(`defineSuite: unknown runtime ${JSON.stringify(r)}`);
    }
  }
  return { package: suite.package, runtimes: [...runtimes], cases: [...suite.cases] };
}

// ---------------------------------------------------------------------------------------------
// Formatting values for failure messages (JSON-ish, truncated).

const MAX_FORMAT_CHARS = 500;
const MAX_ITEMS = 50;
const MAX_DEPTH = 6;

function truncate(text: string, max = MAX_FORMAT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more chars)`;
}

function typeName(value: object): string {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === null) return "null-prototype object";
  const ctor = (proto as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === "string" && ctor.name !== "" ? ctor.name : "Object";
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype;
}

function formatInner(value: unknown, depth: number, seen: Set<object>): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Object.is(value, -0) ? "-0" : String(value);
    case "bigint":
      return `${value}n`;
    case "undefined":
      return "undefined";
    case "boolean":
      return String(value);
    case "symbol":
      return value.toString();
    case "function":
      return `[Function ${value.name || "(anonymous)"}]`;
  }
  if (value === null) return "null";
  const obj = value as object;
  if (seen.has(obj)) return "[Circular]";
  if (obj instanceof Error) {
    const code = (obj as { code?: unknown }).code;
    return `[${obj.name}${code === undefined ? "" : ` ${String(code)}`}: ${obj.message}]`;
  }
  if (obj instanceof Date) {
    return Number.isNaN(obj.getTime()) ? "Date(Invalid)" : `Date(${obj.toISOString()})`;
  }
  if (obj instanceof RegExp) return obj.toString();
  if (obj instanceof ArrayBuffer) {
    return `ArrayBuffer(${obj.byteLength}) ${formatInner(new Uint8Array(obj), depth, seen).replace(/^Uint8Array\(\d+\) /, "")}`;
  }
  if (ArrayBuffer.isView(obj)) {
    if (obj instanceof DataView) return `DataView(${obj.byteLength})`;
    const arr = obj as unknown as ArrayLike<number | bigint>;
    const items: string[] = [];
    for (let i = 0; i < Math.min(arr.length, MAX_ITEMS); i++) {
      items.push(formatInner(arr[i], depth + 1, seen));
    }
    if (arr.length > MAX_ITEMS) items.push(`… ${arr.length - MAX_ITEMS} more`);
    return `${typeName(obj)}(${arr.length}) [${items.join(", ")}]`;
  }
  if (depth >= MAX_DEPTH) return Array.isArray(obj) ? "[Array]" : `[${typeName(obj)}]`;
  seen.add(obj);
  try {
    if (Array.isArray(obj)) {
      const items: string[] = [];
      for (let i = 0; i < Math.min(obj.length, MAX_ITEMS); i++) {
        items.push(i in obj ? formatInner(obj[i], depth + 1, seen) : "<empty>");
      }
      if (obj.length > MAX_ITEMS) items.push(`… ${obj.length - MAX_ITEMS} more`);
      return `[${items.join(", ")}]`;
    }
    if (obj instanceof Map) {
      const items: string[] = [];
      for (const [k, v] of obj) {
        if (items.length >= MAX_ITEMS) {
          items.push("…");
          break;
        }
        items.push(`${formatInner(k, depth + 1, seen)} => ${formatInner(v, depth + 1, seen)}`);
      }
      return `Map(${obj.size}) {${items.join(", ")}}`;
    }
    if (obj instanceof Set) {
      const items: string[] = [];
      for (const v of obj) {
        if (items.length >= MAX_ITEMS) {
          items.push("…");
          break;
        }
        items.push(formatInner(v, depth + 1, seen));
      }
      return `Set(${obj.size}) {${items.join(", ")}}`;
    }
    const keys = Object.keys(obj);
    const items: string[] = [];
    for (const key of keys.slice(0, MAX_ITEMS)) {
      items.push(
        `${JSON.stringify(key)}: ${formatInner((obj as Record<string, unknown>)[key], depth + 1, seen)}`,
      );
    }
    if (keys.length > MAX_ITEMS) items.push(`… ${keys.length - MAX_ITEMS} more`);
    const prefix = isPlainObject(obj) ? "" : `${typeName(obj)} `;
    return `${prefix}{${items.join(", ")}}`;
  } finally {
    seen.delete(obj);
  }
}

/** Formats a value JSON-ish for messages, truncated to about 500 characters. */
export function formatValue(value: unknown): string {
  try {
    return truncate(formatInner(value, 0, new Set()));
  } catch (error) {
    return `[unformattable value: ${String(error)}]`;
  }
}

// ---------------------------------------------------------------------------------------------
// Structural comparison.

interface Difference {
  path: string;
  reason: string;
}

function keyPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function bytesOf(view: ArrayBufferView | ArrayBuffer): Uint8Array {
  return view instanceof ArrayBuffer
    ? new Uint8Array(view)
    : new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function findDifference(
  actual: unknown,
  expected: unknown,
  path: string,
  seen: Map<object, Set<object>>,
): Difference | undefined {
  if (Object.is(actual, expected)) return undefined;
  const valueDiff = (): Difference => ({
    path,
    reason: `actual ${formatValue(actual)}, expected ${formatValue(expected)}`,
  });
  if (
    typeof actual !== "object" ||
    typeof expected !== "object" ||
    actual === null ||
    expected === null
  ) {
    return valueDiff();
  }
  if (Object.getPrototypeOf(actual) !== Object.getPrototypeOf(expected)) {
    return { path, reason: `actual is ${typeName(actual)}, expected ${typeName(expected)}` };
  }
  let pairs = seen.get(actual);
  if (pairs?.has(expected)) return undefined; // already being compared (cycle)
  if (!pairs) {
    pairs = new Set();
    seen.set(actual, pairs);
  }
  pairs.add(expected);

  if (actual instanceof ArrayBuffer || ArrayBuffer.isView(actual)) {
    const a = actual as ArrayBufferView | ArrayBuffer;
    const e = expected as ArrayBufferView | ArrayBuffer;
    if (
      !(actual instanceof ArrayBuffer) &&
      !(actual instanceof DataView) &&
      !(actual instanceof Uint8Array)
    ) {
      // Other typed arrays: compare element-wise so that NaN/-0 follow Object.is.
      const aa = actual as unknown as ArrayLike<unknown>;
      const ee = expected as unknown as ArrayLike<unknown>;
      if (aa.length !== ee.length) {
        return { path, reason: `length ${aa.length}, expected length ${ee.length}` };
      }
      for (let i = 0; i < aa.length; i++) {
        if (!Object.is(aa[i], ee[i])) return findDifference(aa[i], ee[i], `${path}[${i}]`, seen);
      }
      return undefined;
    }
    const ab = bytesOf(a);
    const eb = bytesOf(e);
    if (ab.length !== eb.length) {
      return { path, reason: `byte length ${ab.length}, expected byte length ${eb.length}` };
    }
    for (let i = 0; i < ab.length; i++) {
      if (ab[i] !== eb[i]) {
        return { path: `${path}[${i}]`, reason: `actual byte ${ab[i]}, expected byte ${eb[i]}` };
      }
    }
    return undefined;
  }
  if (actual instanceof Date) {
    return Object.is(actual.getTime(), (expected as Date).getTime()) ? undefined : valueDiff();
  }
  if (actual instanceof RegExp) {
    const e = expected as RegExp;
    return actual.source === e.source && actual.flags === e.flags ? undefined : valueDiff();
  }
  if (actual instanceof Error) {
    const e = expected as Error;
    if (actual.name !== e.name) return findDifference(actual.name, e.name, `${path}.name`, seen);
    if (actual.message !== e.message) {
      return findDifference(actual.message, e.message, `${path}.message`, seen);
    }
  }
  if (actual instanceof Map) {
    const e = expected as Map<unknown, unknown>;
    if (actual.size !== e.size)
      return { path, reason: `Map size ${actual.size}, expected ${e.size}` };
    for (const [k, v] of actual) {
      if (!e.has(k)) return { path, reason: `actual has key ${formatValue(k)}, expected has not` };
      const d = findDifference(v, e.get(k), `${path}.get(${formatValue(k)})`, seen);
      if (d) return d;
    }
    return undefined;
  }
  if (actual instanceof Set) {
    const e = expected as Set<unknown>;
    if (actual.size !== e.size)
      return { path, reason: `Set size ${actual.size}, expected ${e.size}` };
    for (const v of actual) {
      if (e.has(v)) continue;
      let found = false;
      if (typeof v === "object" && v !== null) {
        for (const w of e) {
          if (!findDifference(v, w, path, new Map())) {
            found = true;
            break;
          }
        }
      }
      if (!found) return { path, reason: `actual has element ${formatValue(v)}, expected has not` };
    }
    return undefined;
  }
  if (Array.isArray(actual)) {
    const e = expected as unknown[];
    if (actual.length !== e.length) {
      return { path, reason: `array length ${actual.length}, expected length ${e.length}` };
    }
    for (let i = 0; i < actual.length; i++) {
      const d = findDifference(actual[i], e[i], `${path}[${i}]`, seen);
      if (d) return d;
    }
    return undefined;
  }
  // Objects (plain or class instances with the same prototype): own enumerable string keys.
  // A property that is present with the value `undefined` differs from a missing property.
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  const aKeys = Object.keys(a);
  const eKeys = Object.keys(e);
  const eKeySet = new Set(eKeys);
  for (const key of aKeys) {
    if (!eKeySet.has(key)) {
      return {
        path: keyPath(path, key),
        reason: `unexpected property (actual ${formatValue(a[key])}, expected it to be absent)`,
      };
    }
  }
  const aKeySet = new Set(aKeys);
  for (const key of eKeys) {
    if (!aKeySet.has(key)) {
      return {
        path: keyPath(path, key),
        reason: `missing property (expected ${formatValue(e[key])})`,
      };
    }
  }
  for (const key of aKeys) {
    const d = findDifference(a[key], e[key], keyPath(path, key), seen);
    if (d) return d;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Assertions.

export class AssertionError extends Error {
  override name = "AssertionError";
  readonly code = "ERR_ASSERTION";
  readonly actual: unknown;
  readonly expected: unknown;
  constructor(message: string, actual?: unknown, expected?: unknown) {
    super(message);
    this.actual = actual;
    this.expected = expected;
  }
}

function fail(
  defaultMessage: string,
  message: string | undefined,
  details: string[],
  actual?: unknown,
  expected?: unknown,
): never {
  const head = message === undefined ? defaultMessage : `${message} (${defaultMessage})`;
  throw new AssertionError([head, ...details.map((d) => `  ${d}`)].join("\n"), actual, expected);
}

function describeThrown(error: unknown): string {
  if (
    error instanceof Error ||
    (typeof error === "object" && error !== null && "message" in error)
  ) {
    const e = error as { name?: unknown; message?: unknown; code?: unknown };
    const code = e.code === undefined ? "" : ` [code ${formatValue(e.code)}]`;
    return truncate(`${String(e.name ?? "Error")}: ${String(e.message)}${code}`);
  }
  return `non-error value ${formatValue(error)}`;
}

function checkCode(
  kind: "throw" | "reject",
  error: unknown,
  expectedCode: string | undefined,
  message: string | undefined,
): void {
  if (expectedCode === undefined) return;
  const code =
    typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code !== expectedCode) {
    fail(
      `expected function to ${kind} an error with code ${JSON.stringify(expectedCode)}`,
      message,
      [
        `actual code:   ${formatValue(code)}`,
        `expected code: ${JSON.stringify(expectedCode)}`,
        `thrown: ${describeThrown(error)}`,
      ],
      code,
      expectedCode,
    );
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

export interface Assert {
  /** `Object.is(actual, expected)`. */
  equal(actual: unknown, expected: unknown, message?: string): void;
  /**
   * Structural equality: same prototypes, arrays element-wise, plain objects by own enumerable
   * keys (a property present with `undefined` is not the same as a missing one), Uint8Array and
   * other typed arrays / ArrayBuffer / DataView by content, Map, Set, Date, RegExp; primitives
   * with `Object.is`.
   */
  deepEqual(actual: unknown, expected: unknown, message?: string): void;
  ok(value: unknown, message?: string): asserts value;
  /** Returns the thrown error; checks `error.code === expectedCode` when given. */
  throws(fn: () => unknown, expectedCode?: string, message?: string): unknown;
  /** Resolves to the rejection reason; checks `error.code === expectedCode` when given. */
  rejects(fn: () => Promise<unknown>, expectedCode?: string, message?: string): Promise<unknown>;
}

const NOTHING = Symbol("nothing thrown");

export const assert: Assert = {
  equal(actual, expected, message) {
    if (Object.is(actual, expected)) return;
    const sameShape =
      typeof actual === "object" &&
      actual !== null &&
      findDifference(actual, expected, "$", new Map()) === undefined;
    fail(
      "expected values to be identical (Object.is)",
      message,
      [
        `actual:   ${formatValue(actual)}`,
        `expected: ${formatValue(expected)}`,
        ...(sameShape ? ["(deeply equal but not the same object: use assert.deepEqual)"] : []),
      ],
      actual,
      expected,
    );
  },

  deepEqual(actual, expected, message) {
    const difference = findDifference(actual, expected, "$", new Map());
    if (!difference) return;
    fail(
      "expected values to be deeply equal",
      message,
      [
        `at ${difference.path}: ${difference.reason}`,
        `actual:   ${formatValue(actual)}`,
        `expected: ${formatValue(expected)}`,
      ],
      actual,
      expected,
    );
  },

  ok(value, message): asserts value {
    if (value) return;
    fail("expected a truthy value", message, [`actual: ${formatValue(value)}`], value, true);
  },

  throws(fn, expectedCode, message) {
    let thrown: unknown = NOTHING;
    let returned: unknown;
    try {
      returned = fn();
    } catch (error) {
      thrown = error;
    }
    if (thrown === NOTHING) {
      if (isThenable(returned)) {
        // Keep an async rejection from surfacing as an unhandled rejection.
        Promise.resolve(returned).catch(() => {});
        fail(
          "expected function to throw, but it returned a Promise (use assert.rejects)",
          message,
          [],
        );
      }
      fail("expected function to throw", message, [`returned: ${formatValue(returned)}`]);
    }
    checkCode("throw", thrown, expectedCode, message);
    return thrown;
  },

  async rejects(fn, expectedCode, message) {
    let promise: unknown;
    try {
      promise = fn();
    } catch (error) {
      // A synchronous throw counts as a rejection.
      checkCode("reject", error, expectedCode, message);
      return error;
    }
    if (!isThenable(promise)) {
      fail("expected function to return a Promise", message, [`returned: ${formatValue(promise)}`]);
    }
    let value: unknown;
    try {
      value = await promise;
    } catch (error) {
      checkCode("reject", error, expectedCode, message);
      return error;
    }
    return fail("expected the Promise to reject", message, [
      `resolved with: ${formatValue(value)}`,
    ]);
  },
};

// ---------------------------------------------------------------------------------------------
// Running.

/** A case still pending after this long fails, so that one hung case names itself. */
const CASE_TIMEOUT_MS = 60_000;
const STACK_FRAMES = 8;

// The globals used here, typed locally so that this file typechecks with only the ES lib
// (whatever `lib`/`types` the package importing it uses).
const runtimeGlobals = globalThis as unknown as {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  performance?: { now(): number };
};

function now(): number {
  const perf = runtimeGlobals.performance;
  return typeof perf?.now === "function" ? perf.now() : Date.now();
}

/** "Name: message" plus the first few stack frames. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) {
    if (typeof error === "object" && error !== null && "message" in error) {
      return describeThrown(error);
    }
    return `thrown ${describeThrown(error)}`;
  }
  const code = (error as { code?: unknown }).code;
  const head = `${error.name}: ${error.message}${
    code === undefined || error instanceof AssertionError ? "" : ` [code ${formatValue(code)}]`
  }`;
  // The stack usually repeats "Name: message" (which may itself contain lines starting with "at"):
  // only look at what follows the message.
  let stack = typeof error.stack === "string" ? error.stack : "";
  const messageAt = error.message ? stack.indexOf(error.message) : -1;
  if (messageAt !== -1) stack = stack.slice(messageAt + error.message.length);
  const frames = stack
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^at\s/.test(line) || /^[^\s@]*@\S+:\d+/.test(line))
    .slice(0, STACK_FRAMES);
  let text = head;
  if (error.cause !== undefined) text += `\n  cause: ${describeThrown(error.cause)}`;
  if (frames.length > 0) text += `\n  ${frames.join("\n  ")}`;
  return text;
}

async function runWithTimeout(run: () => void | Promise<void>): Promise<void> {
  let timer: unknown;
  const timeout = new Promise<never>((_, reject) => {
    timer = runtimeGlobals.setTimeout(
      () => reject(new Error(`case did not settle within ${CASE_TIMEOUT_MS / 1000} s`)),
      CASE_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([Promise.resolve().then(run), timeout]);
  } finally {
    runtimeGlobals.clearTimeout(timer);
  }
}

/** Runs the cases one after the other; never rejects because a case failed. */
export async function runSuite(suite: ConformanceSuite): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const testCase of suite.cases) {
    const start = now();
    try {
      await runWithTimeout(testCase.run);
      results.push({ name: testCase.name, passed: true, durationMs: elapsed(start) });
    } catch (error) {
      results.push({
        name: testCase.name,
        passed: false,
        error: describeError(error),
        durationMs: elapsed(start),
      });
    }
  }
  return results;
}

function elapsed(start: number): number {
  return Math.round((now() - start) * 100) / 100;
}
