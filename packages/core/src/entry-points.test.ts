import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { loadsOpenTelemetryApi, resolvedModules } from "../../../scripts/resolved-modules.ts";
import * as onNode from "./index.node.ts";
import * as everywhere from "./index.ts";

describe("entry points", () => {
  it("the node condition exports exactly the names of the default one, which its types describe", () => {
    expect(Object.keys(onNode).sort()).toEqual(Object.keys(everywhere).sort());
  });

  it("loadTaskContext(directory) on a runtime without a file system says to pass a Workspace", async () => {
    await expect(everywhere.loadTaskContext("/srv/agents/run-42")).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message:
        "Invalid workspace: a directory path needs a file system, which this runtime does not offer through task-context. Pass a Workspace, such as memoryWorkspace().",
    });
  });
});

// The built entry points: only `./tracing` loads @opentelemetry/api, so the packages that do not
// open spans (the protocols, the system prompt, core's own users) never load it.
const PACKAGE = fileURLToPath(new URL("..", import.meta.url));

describe("the built entry points, imported in a fresh Node process", () => {
  it.each([
    ["@task-context/core", "index.node"],
    ["@task-context/core/internal", "internal"],
    ["@task-context/core/node", "node"],
    ["@task-context/core/o200k", "o200k"],
  ])("%s loads dist/%s.js, not @opentelemetry/api", (entry, file) => {
    const resolutions = resolvedModules(entry, PACKAGE);

    expect(resolutions[0]).toStrictEqual({
      specifier: entry,
      url: pathToFileURL(`${PACKAGE}dist/${file}.js`).href,
    });
    expect(loadsOpenTelemetryApi(resolutions)).toBe(false);
  });

  it("@task-context/core/tracing loads dist/tracing.js and @opentelemetry/api", () => {
    const resolutions = resolvedModules("@task-context/core/tracing", PACKAGE);

    expect(resolutions[0]?.url).toBe(pathToFileURL(`${PACKAGE}dist/tracing.js`).href);
    expect(loadsOpenTelemetryApi(resolutions)).toBe(true);
  });
});
