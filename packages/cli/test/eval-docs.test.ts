// docs/eval.md's spec is a valid spec, and the table it shows is what examples/eval.ts prints.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEvalSpecText } from "../src/eval/eval-spec.ts";

const page = readFileSync(join(import.meta.dirname, "../../../docs/eval.md"), "utf8");

/** The body of the first fenced block of `language` after `marker` on the page. */
function blockAfter(marker: string, language: string): string {
  const from = page.indexOf(marker);
  const start = page.indexOf(`\`\`\`${language}\n`, from) + language.length + 4;
  return page.slice(start, page.indexOf("\n```", start));
}

describe("docs/eval.md", () => {
  it("shows a spec that is valid, with every field", () => {
    const spec = parseEvalSpecText(blockAfter("## The spec", "yaml"), "eval.yaml");
    expect(Object.keys(spec).sort()).toStrictEqual(
      [
        "budget",
        "concurrency",
        "conditions",
        "judges",
        "rate_limit",
        "recipients",
        "seed",
        "tasks",
        "trials",
        "views",
        "workspace",
      ].sort(),
    );
  });
});
