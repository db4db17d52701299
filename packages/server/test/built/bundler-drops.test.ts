// Which calls rolldown, the packages' bundler (tsdown.shared.ts), drops when their result is
// unused: each must be refused by the lint rule lint/result-unused.grit, or a statement kept
// only for its throw (as `decodeURIComponent(run)` in a try/catch was) vanishes from dist/
// again. When a rolldown upgrade drops one more, this fails and names it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";
import { describe, expect, it } from "vitest";

/** Calls of the globals the packages use or could, each with an argument. */
const candidates = [
  "decodeURI(x)",
  "decodeURIComponent(x)",
  "encodeURI(x)",
  "encodeURIComponent(x)",
  "escape(x)",
  "unescape(x)",
  "String(x)",
  "Number(x)",
  "Boolean(x)",
  "Symbol(x)",
  "BigInt(x)",
  "parseInt(x)",
  "parseFloat(x)",
  "isNaN(x)",
  "isFinite(x)",
  "Object(x)",
  "Array(x)",
  "Date(x)",
  "RegExp(x)",
  "Error(x)",
  "Math.max(x)",
  "JSON.parse(x)",
  "JSON.stringify(x)",
  "Object.keys(x)",
  "Object.entries(x)",
  "Object.getPrototypeOf(x)",
  "Object.freeze(x)",
  "Array.from(x)",
  "Array.isArray(x)",
  "Array.of(x)",
  "Number.parseInt(x)",
  "String.fromCharCode(x)",
  "String.fromCodePoint(x)",
  "Symbol.for(x)",
  "Reflect.ownKeys(x)",
  "Promise.resolve(x)",
  "atob(x)",
  "btoa(x)",
  "structuredClone(x)",
  "new Set(x)",
  "new Map(x)",
  "new URL(x)",
  "new URLSearchParams(x)",
  "new Date(x)",
  "new RegExp(x)",
  "new Error(x)",
  "new Uint8Array(x)",
  "new TextDecoder(x)",
  "new Intl.Segmenter(x)",
  "new Headers(x)",
  "new Request(x)",
  "new Response(x)",
];

/** The callees lint/result-unused.grit refuses as a statement. */
function refusedByTheRule(): Set<string> {
  const rule = readFileSync(
    fileURLToPath(new URL("../../../../lint/result-unused.grit", import.meta.url)),
    "utf8",
  );
  const list = /or \{([^}]*)\}/.exec(rule)?.[1] ?? "";
  return new Set([...list.matchAll(/`([^`]+)`/g)].map(([, callee]) => callee ?? ""));
}

describe("calls the bundler drops when their result is unused", () => {
  it("are each refused by lint/result-unused.grit", async () => {
    const source = candidates
      .map(
        (call, index) =>
          `export function probe${index}(x) { try { ${call}; } catch { return "threw"; } return "kept"; }`,
      )
      .join("\n");
    const bundle = await rolldown({
      input: "probe.js",
      plugins: [{ name: "probe", resolveId: (id) => id, load: () => source }],
    });
    const { output } = await bundle.generate({ format: "esm", minify: false });
    const code = output[0].code;
    const dropped = candidates.filter((_call, index) => {
      const body = new RegExp(`function probe${index}\\(x\\) \\{([\\s\\S]*?)\\n\\}`).exec(code);
      return body !== null && !body[1]?.includes("threw");
    });
    // Some are dropped (else the probe proves nothing), and the rule names every one (a `new`
    // expression it cannot name: the rule would need a pattern for those).
    expect(dropped).toContain("decodeURIComponent(x)");
    const refused = refusedByTheRule();
    const unnamed = dropped
      .map((call) => call.replace("(x)", ""))
      .filter((callee) => !refused.has(callee));
    expect(unnamed).toEqual([]);
  });
});
