import { describe, expect, it } from "vitest";
import {
  AssertionError,
  assert,
  defineSuite,
  formatValue,
  RUNTIMES,
  runSuite,
} from "../src/harness.ts";

function failure(fn: () => unknown): AssertionError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AssertionError) return error;
    throw error;
  }
  throw new Error("expected an AssertionError");
}

describe("defineSuite", () => {
  it("defaults to all five runtimes", () => {
    const suite = defineSuite({ package: "@x/y", cases: [] });
    expect(suite.runtimes).toEqual(["node20", "node24", "bun", "deno", "workerd"]);
    expect(RUNTIMES).toEqual(suite.runtimes);
  });

  it("rejects unknown runtimes and malformed cases", () => {
    expect(() =>
      defineSuite({ package: "@x/y", runtimes: ["node18" as "node20"], cases: [] }),
    ).toThrow(/unknown runtime/);
    expect(() => defineSuite({ package: "@x/y", cases: [{ name: "a" } as never] })).toThrow(
      /name.*run/,
    );
  });
});

describe("assert.equal", () => {
  it("uses Object.is", () => {
    assert.equal(Number.NaN, Number.NaN);
    failure(() => assert.equal(0, -0));
    const e = failure(() => assert.equal({ a: 1 }, { a: 1 }));
    expect(e.message).toContain("use assert.deepEqual");
  });

  it("shows actual and expected", () => {
    const e = failure(() => assert.equal("abc", "abd", "names match"));
    expect(e.message).toContain("names match");
    expect(e.message).toContain('actual:   "abc"');
    expect(e.message).toContain('expected: "abd"');
    expect(e.code).toBe("ERR_ASSERTION");
  });
});

describe("assert.deepEqual", () => {
  it("accepts structurally equal values", () => {
    assert.deepEqual(
      { a: [1, { b: new Uint8Array([1, 2]) }], c: undefined, d: new Map([["k", new Set([1])]]) },
      { a: [1, { b: new Uint8Array([1, 2]) }], c: undefined, d: new Map([["k", new Set([1])]]) },
    );
    assert.deepEqual([Number.NaN], [Number.NaN]);
    assert.deepEqual(new Date(5), new Date(5));
    const cyclicA: Record<string, unknown> = { x: 1 };
    cyclicA.self = cyclicA;
    const cyclicB: Record<string, unknown> = { x: 1 };
    cyclicB.self = cyclicB;
    assert.deepEqual(cyclicA, cyclicB);
  });

  it("tells an undefined property from a missing one", () => {
    const e = failure(() => assert.deepEqual({ a: 1, b: undefined }, { a: 1 }));
    expect(e.message).toContain("at $.b: unexpected property");
    const f = failure(() => assert.deepEqual({ a: 1 }, { a: 1, b: undefined }));
    expect(f.message).toContain("at $.b: missing property");
  });

  it("points at the first difference", () => {
    const e = failure(() => assert.deepEqual({ list: [1, { z: "x" }] }, { list: [1, { z: "y" }] }));
    expect(e.message).toContain('at $.list[1].z: actual "x", expected "y"');
    expect(e.message).toContain('actual:   {"list": [1, {"z": "x"}]}');
  });

  it("compares bytes and prototypes", () => {
    const e = failure(() => assert.deepEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 9, 3])));
    expect(e.message).toContain("at $[1]: actual byte 2, expected byte 9");
    expect(e.message).toContain("Uint8Array(3) [1, 2, 3]");
    const p = failure(() => assert.deepEqual(new Uint8Array([1]), [1]));
    expect(p.message).toContain("actual is Uint8Array, expected Array");
    failure(() => assert.deepEqual(0, -0));
  });

  it("truncates long values", () => {
    const e = failure(() => assert.deepEqual("x".repeat(2000), "y"));
    expect(e.message).toContain("more chars");
    expect(e.message.length).toBeLessThan(1700);
    expect(formatValue("x".repeat(2000)).length).toBeLessThan(560);
  });
});

describe("assert.ok / throws / rejects", () => {
  it("ok", () => {
    assert.ok(1);
    expect(failure(() => assert.ok(0, "needs a value")).message).toContain("needs a value");
  });

  it("throws returns the error and checks the code", () => {
    const err = Object.assign(new Error("boom"), { code: "E_BOOM" });
    expect(
      assert.throws(() => {
        throw err;
      }, "E_BOOM"),
    ).toBe(err);
    const e = failure(() =>
      assert.throws(() => {
        throw err;
      }, "E_OTHER"),
    );
    expect(e.message).toContain('actual code:   "E_BOOM"');
    expect(failure(() => assert.throws(() => 1)).message).toContain("expected function to throw");
    expect(failure(() => assert.throws(async () => {})).message).toContain("assert.rejects");
  });

  it("rejects resolves to the reason and checks the code", async () => {
    const err = Object.assign(new Error("nope"), { code: "E_NOPE" });
    await expect(assert.rejects(async () => Promise.reject(err), "E_NOPE")).resolves.toBe(err);
    await expect(assert.rejects(async () => Promise.reject(err), "E_X")).rejects.toThrow(
      /code "E_X"/,
    );
    await expect(assert.rejects(async () => 5)).rejects.toThrow(/resolved with: 5/);
  });
});

describe("runSuite", () => {
  it("runs cases in order and reports failures with messages", async () => {
    const order: string[] = [];
    const results = await runSuite(
      defineSuite({
        package: "@x/y",
        cases: [
          { name: "ok", run: () => void order.push("ok") },
          {
            name: "async fail",
            run: async () => {
              order.push("async fail");
              assert.equal(1, 2);
            },
          },
          {
            name: "throws",
            run: () => {
              order.push("throws");
              throw new TypeError("bad");
            },
          },
        ],
      }),
    );
    expect(order).toEqual(["ok", "async fail", "throws"]);
    expect(results.map((r) => [r.name, r.passed])).toEqual([
      ["ok", true],
      ["async fail", false],
      ["throws", false],
    ]);
    expect(results[1]?.error).toMatch(/^AssertionError: expected values to be identical/);
    expect(results[1]?.error).toContain("actual:   1");
    expect(results[2]?.error).toMatch(/^TypeError: bad\n\s+at /);
    expect(results.every((r) => typeof r.durationMs === "number")).toBe(true);
  });
});
