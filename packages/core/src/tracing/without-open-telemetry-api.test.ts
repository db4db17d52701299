// `@opentelemetry/api` is an optional peer dependency: the built tracing entry point, installed
// where the API is not, must work for every caller as it does without an SDK. Each test installs
// core's built dist/ in a fresh folder of the system's temporary directory (no node_modules above
// it), as npm lays out a package, and imports it in a new Node process: with Node's conditions
// (the API required, open-telemetry-api.node.ts) and with `workerd`'s (the API imported by a
// top-level await, open-telemetry-api.ts, as on Workers and in browsers).
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const PACKAGE = fileURLToPath(new URL("../..", import.meta.url));
const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

/** What the probe does with each function of the tracing entry point, printed as JSON. */
const PROBE = `
import * as tracing from "@task-context/core/tracing";
const carrier = { traceparent: "${TRACEPARENT}", tracestate: "vendor=opaque" };
const headers = {};
tracing.injectTraceContext(headers);
const seen = {};
const result = await tracing.traceDelivery(
  { tracer: "probe", name: "execute_tool read_media", recipient: { kind: "media-tool" } },
  (span) => {
    span.recordContext({ content: "Lumen", sha256: "abc", truncated: false });
    span.setAttributes({ a: 1 });
    seen.recording = span.recording;
    seen.current = tracing.currentDelivery() === undefined ? "none" : "some";
    return "delivered";
  },
);
const thrown = new Error("model down");
const rethrown = await tracing
  .traceDelivery({ tracer: "probe", name: "x", recipient: { kind: "model" } }, () => { throw thrown; })
  .catch((error) => error === thrown);
const into = tracing.extractTraceContext(carrier);
const extracted = tracing.extractTraceContext(carrier, into) === into;
const environment = tracing.contextFromEnvironment({ TRACEPARENT: "${TRACEPARENT}" }, into) === into;
const value = Symbol("value");
const valued = into.setValue(value, 42);
console.log(JSON.stringify({
  headers,
  result,
  seen,
  rethrown,
  extracted,
  environment,
  values: [valued.getValue(value), into.getValue(value), valued.deleteValue(value).getValue(value)],
  ran: tracing.withTraceContext(carrier, () => "ran"),
  read: tracing.readTraceContext(carrier) ?? "none",
  traceEnvironment: tracing.traceEnvironment(),
  errorType: tracing.errorTypeOf(Object.assign(new Error("x"), { code: "LEASE_LOST" })),
}));
`;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A project with core's package.json and dist/ installed, and `packages` beside it. */
function projectWithCore(packages: Record<string, Record<string, string>> = {}): string {
  const project = mkdtempSync(join(tmpdir(), "core-without-otel-"));
  folders.push(project);
  const core = join(project, "node_modules", "@task-context", "core");
  mkdirSync(core, { recursive: true });
  cpSync(join(PACKAGE, "package.json"), join(core, "package.json"));
  cpSync(join(PACKAGE, "dist"), join(core, "dist"), { recursive: true });
  for (const [name, files] of Object.entries(packages)) {
    const folder = join(project, "node_modules", name);
    mkdirSync(folder, { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text);
  }
  writeFileSync(join(project, "probe.mjs"), PROBE);
  return project;
}

/** The loaders: Node's (`node` condition), and the one of Workers and browsers. */
const LOADERS = [
  ["Node's", []],
  ["Workers'", ["--conditions=workerd"]],
] as const;

function runProbe(project: string, options: readonly string[]) {
  return spawnSync(process.execPath, [...options, "probe.mjs"], { cwd: project, encoding: "utf8" });
}

describe.each(LOADERS)(
  "@task-context/core/tracing without @opentelemetry/api, %s loader",
  (_, options) => {
    it("traces nothing and carries nothing, as without an SDK, and runs every delivery", () => {
      const probe = runProbe(projectWithCore(), options);

      expect(probe.stderr).toBe("");
      expect(JSON.parse(probe.stdout)).toStrictEqual({
        headers: {},
        result: "delivered",
        seen: { recording: false, current: "none" },
        rethrown: true,
        extracted: true,
        environment: true,
        values: [42, null, null],
        ran: "ran",
        read: "none",
        traceEnvironment: {},
        errorType: "LEASE_LOST",
      });
    });

    it("throws what an installed but broken @opentelemetry/api throws: only an absent one is none", () => {
      const broken = {
        "package.json": JSON.stringify({ name: "@opentelemetry/api", main: "index.js" }),
        "index.js": 'throw new Error("@opentelemetry/api could not start");',
      };
      const probe = runProbe(projectWithCore({ "@opentelemetry/api": broken }), options);

      expect(probe.status).toBe(1);
      expect(probe.stderr).toContain("Error: @opentelemetry/api could not start");
    });
  },
);

describe("@task-context/core/tracing on Node", () => {
  it("can be required by a CommonJS program: no top-level await on Node", () => {
    const required = spawnSync(
      process.execPath,
      ["--eval", 'console.log(typeof require("@task-context/core/tracing").traceDelivery)'],
      { cwd: projectWithCore(), encoding: "utf8" },
    );

    expect([required.stderr, required.stdout]).toEqual(["", "function\n"]);
  });
});
