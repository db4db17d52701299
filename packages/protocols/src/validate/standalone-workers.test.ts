import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { schemaNames } from "../schemas/registry.ts";
import { validators } from "./standalone-validators.generated.js";
import { getValidator } from "./standalone-validators.ts";
import { allFixtures, fixturesDirectory } from "./test-fixtures.ts";

const generatedUrl = new URL("./standalone-validators.generated.js", import.meta.url);
const source = readFileSync(generatedUrl, "utf8");

/** Runs `body` with `Function` and `eval` throwing, as on Cloudflare Workers. */
function withoutCodeGeneration<T>(body: () => T): T {
  // biome-ignore lint/security/noGlobalEval: kept to be restored after the stub, never called
  const original = { Function: globalThis.Function, eval: globalThis.eval };
  // A plain function, so that `new Function(…)` reaches it and throws like workerd does.
  function refuse(): never {
    throw new EvalError("Code generation from strings disallowed for this context");
  }
  globalThis.Function = refuse as unknown as FunctionConstructor;
  globalThis.eval = refuse;
  try {
    return body();
  } finally {
    globalThis.Function = original.Function;
    globalThis.eval = original.eval;
  }
}

describe("the standalone validators module", () => {
  it("generates no code at run time and loads nothing", () => {
    expect(source).not.toMatch(/\bnew\s+Function\b/);
    expect(source).not.toMatch(/\bFunction\s*\(/);
    expect(source).not.toMatch(/\beval\s*\(/);
    expect(source).not.toMatch(/\brequire\s*\(/);
    expect(source).not.toMatch(/^\s*import\b/m);
    expect(source).not.toMatch(/\bimport\s*\(/);
  });

  it("exports one validator per published schema", () => {
    expect(Object.keys(validators)).toEqual(schemaNames);
  });

  it("validates every fixture while Function and eval throw", () => {
    // The stub does stop a code generator: ajv compiling at run time fails under it.
    expect(() =>
      withoutCodeGeneration(() => new Ajv2020({ logger: false }).compile({ type: "string" })),
    ).toThrow(EvalError);
    const answers = withoutCodeGeneration(() =>
      allFixtures().map((fixture) => ({
        id: fixture.id,
        valid: getValidator(fixture.schema)(fixture.value).valid,
      })),
    );
    expect(answers).toEqual(
      allFixtures().map((fixture) => ({ id: fixture.id, valid: fixture.expectedValid })),
    );
  });

  it("runs in a Node started with --disallow-code-generation-from-strings", () => {
    const script = `
      import { readdirSync, readFileSync } from "node:fs";
      const { validators } = await import(process.argv[1]);
      let refused = false;
      try { new Function("return 1"); } catch (error) { refused = error instanceof EvalError; }
      const results = [];
      for (const name of Object.keys(validators)) {
        for (const kind of ["valid", "invalid"]) {
          const folder = new URL(name + "/" + kind + "/", process.argv[2]);
          for (const file of readdirSync(folder).sort()) {
            const value = JSON.parse(readFileSync(new URL(file, folder), "utf8"));
            results.push([name + "/" + kind + "/" + file.slice(0, -5), validators[name](value)]);
          }
        }
      }
      console.log(JSON.stringify({ refused, results }));
    `;
    const output = execFileSync(
      process.execPath,
      [
        "--disallow-code-generation-from-strings",
        "--input-type=module",
        "--eval",
        script,
        generatedUrl.href,
        fixturesDirectory.href,
      ],
      { encoding: "utf8", cwd: fileURLToPath(new URL(".", import.meta.url)) },
    );
    const { refused, results } = JSON.parse(output) as {
      refused: boolean;
      results: Array<[string, boolean]>;
    };
    expect(refused).toBe(true);
    expect(Object.fromEntries(results)).toEqual(
      Object.fromEntries(allFixtures().map((fixture) => [fixture.id, fixture.expectedValid])),
    );
  });

  it("falls back to the precompiled validators where ajv cannot generate code", () => {
    const script = `
      const { getValidator } = await import(process.argv[1]);
      const block = { version: 1, project: { path: "/p", stack: "s" }, conventions: { summary: "x" } };
      console.log(JSON.stringify([getValidator("context-block.v1")(block), getValidator("context-block.v1")({})]));
    `;
    const output = execFileSync(
      process.execPath,
      [
        "--disallow-code-generation-from-strings",
        "--conditions=@task-context/source",
        "--input-type=module",
        "--eval",
        script,
        new URL("./runtime-validators.ts", import.meta.url).href,
      ],
      { encoding: "utf8", cwd: fileURLToPath(new URL(".", import.meta.url)) },
    );
    const [valid, invalid] = JSON.parse(output) as Array<{ valid: boolean; issues: unknown[] }>;
    expect(valid).toEqual({ valid: true, issues: [] });
    expect(invalid?.valid).toBe(false);
    expect(invalid?.issues).toHaveLength(3);
  });
});
