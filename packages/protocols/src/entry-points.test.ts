// What the built package loads: the protocols take a hash and argument checks from
// @task-context/core/internal, and must not bring @opentelemetry/api with them, which only core's
// tracing entry point loads (for the packages that open spans).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadsOpenTelemetryApi, resolvedModules } from "../../../scripts/resolved-modules.ts";
import manifest from "../package.json" with { type: "json" };

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));

const SUBPATH_ENTRIES = Object.entries(manifest.exports)
  .filter(([subpath, target]) => subpath !== "." && typeof target === "object")
  .map(([subpath]) => `@task-context/protocols${subpath.slice(1)}`);

describe("the built entry points, imported in a fresh Node process", () => {
  it("the main entry point loads dist/ and core's internal entry point, not @opentelemetry/api", () => {
    const resolutions = resolvedModules("@task-context/protocols", PACKAGE);

    expect(resolutions[0]?.url).toMatch(/\/packages\/protocols\/dist\/index\.js$/);
    expect(
      resolutions.find(({ specifier }) => specifier === "@task-context/core/internal"),
    ).toEqual({
      specifier: "@task-context/core/internal",
      url: expect.stringMatching(/\/packages\/core\/dist\/internal\.js$/),
    });
    expect(loadsOpenTelemetryApi(resolutions)).toBe(false);
  });

  it.each(SUBPATH_ENTRIES)("%s loads dist/, not @opentelemetry/api", (entry) => {
    const resolutions = resolvedModules(entry, PACKAGE);

    expect(resolutions[0]?.url).toMatch(/\/packages\/protocols\/dist\/[\w-]+\.js$/);
    expect(loadsOpenTelemetryApi(resolutions)).toBe(false);
  });

  it("sees @opentelemetry/api where it is loaded: core's tracing entry point", () => {
    const resolutions = resolvedModules("@task-context/core/tracing", PACKAGE);

    expect(resolutions[0]?.url).toMatch(/\/packages\/core\/dist\/tracing\.js$/);
    expect(loadsOpenTelemetryApi(resolutions)).toBe(true);
  });
});
