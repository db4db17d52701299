// The committed registry (src/operations.ts) is what the generator makes from the files of
// src/operations/ now: an operation added, renamed or removed without regenerating fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { firstDifference } from "../../../scripts/generated-files.ts";
import { generateCommand, registryFile, registryPath } from "../scripts/registry-generation.ts";

describe("the generated registry of operations", () => {
  it("is what the files of src/operations/ give", () => {
    const { content } = registryFile();
    const committed = readFileSync(new URL(`../${registryPath}`, import.meta.url), "utf8");
    expect(
      committed === content,
      `${registryPath} differs, ${firstDifference(committed, content)}. Run \`${generateCommand}\` in packages/contract and commit the result.`,
    ).toBe(true);
  });
});
