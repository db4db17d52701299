// The built entry point, imported in a fresh Node process as a user's code imports it: the
// client and @task-context/core, nothing of the server's (no zod, no hono, no protocols).
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { resolvedModules } from "../../../scripts/resolved-modules.ts";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));

describe("the built entry point, imported in a fresh Node process", () => {
  it("loads dist/index.js and, of packages, only @task-context/core (and its tracing peer)", () => {
    const resolutions = resolvedModules("@task-context/client", PACKAGE);
    expect(resolutions[0]).toStrictEqual({
      specifier: "@task-context/client",
      url: pathToFileURL(`${PACKAGE}dist/index.js`).href,
    });
    const packages = new Set(
      resolutions
        .map(({ specifier }) => /^(@[^/]+\/[^/]+|[^./#][^/]*)/.exec(specifier)?.[1])
        .filter((name) => name !== undefined && !name.startsWith("node:")),
    );
    // @opentelemetry/api too, when core's tracing loads it (a peer of core, no server's).
    packages.delete("@opentelemetry/api");
    expect([...packages].sort()).toStrictEqual(["@task-context/client", "@task-context/core"]);
  });
});
