// The OpenAPI document, linted by a tool of its own (Redocly CLI, with the ruleset of
// redocly.yaml), and its examples: every schema has one, and each is valid for the zod schema
// the service validates with.
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import * as contract from "@task-context/contract";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { temporaryFolder } from "../node/services.ts";
import { servedDocument } from "./document.ts";

const cli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
const config = fileURLToPath(new URL("../../redocly.yaml", import.meta.url));

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer?: string }[];
}

/** Redocly's problems with `document`, as `<rule> at <pointer>: <message>`. */
async function lint(document: object): Promise<{ problems: string[]; exitCode: number }> {
  const folder = temporaryFolder();
  try {
    const file = join(folder.path, "openapi.json");
    writeFileSync(file, JSON.stringify(document, null, 2));
    const { stdout, exitCode } = await promisify(execFile)(
      process.execPath,
      [cli, "lint", file, "--config", config, "--format", "json", "--max-problems", "1000"],
      {
        cwd: folder.path,
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
        // No telemetry and no update check: the lint runs offline.
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      },
    ).then(
      ({ stdout }) => ({ stdout, exitCode: 0 }),
      (error: { stdout?: string; code?: number }) => ({
        stdout: error.stdout ?? "",
        exitCode: error.code ?? -1,
      }),
    );
    const report = JSON.parse(stdout) as { problems: Problem[] };
    return {
      exitCode,
      problems: report.problems.map(
        (problem) =>
          `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
      ),
    };
  } finally {
    folder.remove();
  }
}

const document = await servedDocument();

describe("the OpenAPI document", () => {
  it("passes Redocly's lint with the ruleset of redocly.yaml", async () => {
    expect(await lint(document)).toEqual({ problems: [], exitCode: 0 });
  });

  it("fails the lint when it breaks a rule of the ruleset", async () => {
    const broken = structuredClone(document) as typeof document & {
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    const health = broken.paths["/healthz"]?.get as Record<string, unknown>;
    delete health.description;
    delete (health.responses as Record<string, Record<string, unknown>>)["429"]?.headers;
    (broken.components.schemas.Health as Record<string, unknown>).examples = [{ status: "fine" }];
    const { problems, exitCode } = await lint(broken);
    expect(exitCode).toBe(1);
    expect(problems.map((problem) => problem.split(":")[0]).sort()).toEqual([
      "error no-invalid-schema-examples at #/components/schemas/Health/examples/0/status",
      "error operation-description at #/paths/~1healthz/get/description",
      "error response-contains-header at #/paths/~1healthz/get/responses/429/headers",
    ]);
  });

  it("has an example for every schema and every error response", () => {
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect(schema.examples, name).toEqual(expect.arrayContaining([expect.anything()]));
    }
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          const media = response.content?.["application/json"] as { examples?: object } | undefined;
          expect(Object.keys(media?.examples ?? {}), `${method} ${path} ${status}`).not.toEqual([]);
        }
      }
    }
  });

  it("has examples the service's own zod schemas accept", () => {
    const schemas = (Object.values(contract) as unknown[]).filter(
      (value): value is z.core.$ZodType => value instanceof z.core.$ZodType,
    );
    const checked = new Set<string>();
    for (const schema of schemas) {
      const meta = z.globalRegistry.get(schema);
      for (const example of (meta?.examples as unknown[] | undefined) ?? []) {
        expect(z.safeParse(schema, example).error, String(meta?.id)).toBeUndefined();
        checked.add(String(meta?.id));
      }
    }
    expect([...checked].sort()).toEqual(Object.keys(document.components.schemas).sort());
  });
});
