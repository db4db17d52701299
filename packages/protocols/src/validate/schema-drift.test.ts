import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { firstDifference } from "../../../../scripts/generated-files.ts";
import {
  generateCommand,
  generatedFiles,
  schemasDirectory,
} from "../../scripts/schema-generation.ts";

const packageRoot = new URL("../../", import.meta.url);
const fix = `Run \`${generateCommand}\` in packages/protocols and commit the result.`;

function readCommitted(path: string): string | undefined {
  try {
    return readFileSync(new URL(path, packageRoot), "utf8");
  } catch {
    return undefined;
  }
}

describe("generated files", () => {
  const files = generatedFiles();

  it.each(files.map((file) => [file.path, file.content]))(
    "%s matches the zod schemas",
    (path, content) => {
      const committed = readCommitted(path);
      if (committed === undefined) expect.fail(`${path} is missing. ${fix}`);
      if (committed !== content)
        expect.fail(
          `${path} differs from what the zod schemas generate (${firstDifference(committed, content)}). ${fix}`,
        );
    },
  );

  it("publish no schema that the registry no longer has", () => {
    const expected = files.map((file) => file.path).filter((path) => path.endsWith(".schema.json"));
    const committed = readdirSync(new URL(`${schemasDirectory}/`, packageRoot))
      .filter((entry) => entry.endsWith(".schema.json"))
      .map((entry) => `${schemasDirectory}/${entry}`);
    expect(committed.sort(), fix).toEqual(expected.sort());
  });

  it("are the same on every generation", () => {
    expect(generatedFiles()).toEqual(files);
  });
});
