// The committed registries of handlers (src/operations.ts) and reads (src/sql/reads.ts) are what
// the generator makes from their folders' files now: one added, renamed or removed without
// regenerating fails.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { firstDifference } from "../../../../scripts/generated-files.ts";
import { generateCommand, readsFile, registryFile } from "../../scripts/registry-generation.ts";

describe("the generated registries", () => {
  it.each([
    ["handlers", registryFile],
    ["reads", readsFile],
  ])("of %s are what their folders' files give", (_, generate) => {
    const { path, content } = generate();
    const committed = readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
    expect(
      committed === content,
      `${path} differs, ${firstDifference(committed, content)}. Run \`${generateCommand}\` in packages/server and commit the result.`,
    ).toBe(true);
  });
});
