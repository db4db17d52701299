import { operations, publishedSchemas } from "@task-context/contract";
import { schemaNames, validate } from "@task-context/protocols";
import { describe, expect, it } from "vitest";
import { Client, createRun, runInput, taskStage } from "./client.ts";
import type { StartService } from "./harness.ts";
import { suiteService } from "./suite-service.ts";

/**
 * The operations of the contract's registry, as `method path`: the OpenAPI document lists each,
 * and nothing else (an operation is added to the registry only: no list here to edit).
 */
export const contractOperations: readonly string[] = Object.values(operations).map(
  ({ method, path }) => `${method.toLowerCase()} ${path}`,
);

/** Public endpoints and the HTTP rules every answer follows. */
export function publicSuite(start: StartService): void {
  describe("public endpoints and HTTP", () => {
    const service = suiteService(start);
    const anonymous = new Client(service, undefined);

    it("GET /healthz", async () => {
      const answer = await anonymous.get("/healthz");
      expect([answer.status, answer.body]).toEqual([200, { status: "ok" }]);
    });

    it("GET /v1/schemas lists every published schema", async () => {
      const answer = await anonymous.get<{ schemas: { name: string; id: string; url: string }[] }>(
        "/v1/schemas",
      );
      expect(answer.body.schemas).toEqual(
        schemaNames.map((name) => ({
          name,
          id: `urn:task-context:schema:${name}`,
          url: `/v1/schemas/${name}`,
        })),
      );
    });

    it("GET /v1/schemas/{name} is the published file, as application/schema+json", async () => {
      for (const name of schemaNames) {
        const answer = await anonymous.get(`/v1/schemas/${name}`);
        expect(answer.status).toBe(200);
        expect(answer.headers.get("content-type")).toMatch(/^application\/schema\+json/);
        expect(answer.body).toEqual(publishedSchemas[name]);
      }
      const unknown = await anonymous.get("/v1/schemas/work-item.v9");
      expect(unknown.status).toBe(404);
      expect(unknown.error?.code).toBe("SCHEMA_NOT_FOUND");
    });

    it("POST /v1/validate/{name} answers validate()'s verdict", async () => {
      const value = { kind: "chore" };
      const answer = await anonymous.post("/v1/validate/work-item.v1", { body: value });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(validate("work-item.v1", value));
      const unknown = await anonymous.post("/v1/validate/nothing.v1", { body: {} });
      expect(unknown.status).toBe(404);
    });

    it("GET /v1/openapi.json is an OpenAPI 3.1 document of every operation of the contract", async () => {
      const answer = await anonymous.get<Record<string, unknown>>("/v1/openapi.json");
      expect(answer.status).toBe(200);
      const document = answer.body as {
        openapi: string;
        paths: Record<
          string,
          Record<string, { operationId?: string; responses: Record<string, unknown> }>
        >;
        components: { schemas: Record<string, unknown> };
      };
      expect(document.openapi).toBe("3.1.0");
      const operations = Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method} ${path}`),
      );
      expect(operations.sort()).toEqual([...contractOperations].sort());
      for (const item of Object.values(document.paths)) {
        for (const operation of Object.values(item)) {
          expect(operation.operationId).toMatch(/^[a-zA-Z]+$/);
          expect(operation.responses["429"]).toBeDefined();
        }
      }
      for (const name of ["WorkItem", "Artifact", "CollaborationEvent", "Claim", "Run", "Error"]) {
        expect(document.components.schemas[name], name).toBeDefined();
      }
      expect(document.paths["/v1/runs"]?.post?.responses["201"]).toEqual({
        description: "The run, with a warning when secrets were redacted",
        content: { "application/json": { schema: { $ref: "#/components/schemas/RunCreated" } } },
      });
    });

    it("GET /docs is a readable page naming every operation", async () => {
      const answer = await anonymous.get("/docs");
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toMatch(/^text\/html/);
      for (const operation of contractOperations) {
        const [method, path] = operation.split(" ") as [string, string];
        expect(answer.text).toContain(`${method.toUpperCase()}</span> <code>${path}</code>`);
      }
    });

    it("an unknown path gets 404 JSON, a wrong method 405 JSON with Allow", async () => {
      const missing = await anonymous.get("/v2/everything");
      expect([missing.status, missing.error?.code]).toEqual([404, "NOT_FOUND"]);
      const wrong = await anonymous.request("DELETE", "/v1/inbox/poll");
      expect([wrong.status, wrong.error?.code]).toEqual([405, "METHOD_NOT_ALLOWED"]);
      expect(wrong.headers.get("allow")).toBe("GET");
    });

    it("malformed JSON gets 400, a body that is not JSON 415", async () => {
      const admin = new Client(service, service.adminToken);
      const malformed = await admin.post("/v1/runs", {
        raw: "{ not json",
        headers: { "Content-Type": "application/json" },
      });
      expect([malformed.status, malformed.error?.code]).toEqual([400, "INVALID_REQUEST"]);
      const text = await admin.post("/v1/runs", {
        raw: "goal=x",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect([text.status, text.error?.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
    });

    it("wrong types and missing fields get 400 with an issue per field", async () => {
      const { admin } = await createRun(service, runInput([taskStage("draft")]));
      const answer = await admin.post("/v1/runs", {
        body: { goal: 7, stages: [{ ...taskStage("draft"), items: 0 }], lease_ms: 50 },
      });
      expect(answer.status).toBe(400);
      expect(answer.error?.issues).toEqual([
        {
          path: "/goal",
          message:
            'goal must be a non-empty string, not the number 7. Quote it to make it a string: "7".',
        },
        { path: "/constraints", message: "constraints is required: an array." },
        {
          path: "/stages/0/items",
          message: "stages[0].items must be at least 1, not the number 0.",
        },
        { path: "/lease_ms", message: "lease_ms must be at least 100, not the number 50." },
      ]);
    });

    it("hostile bodies and parameters get 400 JSON, never a 500", async () => {
      const { admin, agent, run } = await createRun(service, runInput([taskStage("draft")]));
      for (const raw of ["null", "[]", "7", '"text"', "true", "{}", '{"__proto__":{"goal":"x"}}']) {
        const answer = await admin.post("/v1/runs", {
          raw,
          headers: { "Content-Type": "application/json" },
        });
        expect([answer.status, answer.error?.code], raw).toEqual([400, "INVALID_REQUEST"]);
      }
      const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
      const nested = await admin.post("/v1/runs", {
        raw: `{"goal":"g","constraints":${deep},"stages":[]}`,
        headers: { "Content-Type": "application/json" },
      });
      expect(nested.status).toBe(400);
      const worker = await agent("worker");
      expect((await worker.poll({ wait: "soon" } as never)).error?.issues?.[0]?.path).toBe("/wait");
      expect((await worker.poll({ limit: 1.5 })).status).toBe(400);
      expect((await worker.claim("x".repeat(10_000))).status).toBe(404);
      expect((await admin.artifact(run.run_id, "../../etc/passwd")).status).toBe(404);
      const tags = ["", " ".repeat(101), "x".repeat(101)];
      for (const tag of tags) expect((await admin.addAgent(run.run_id, tag)).status).toBe(400);
      expect((await admin.addAgent(run.run_id, "评审-🙂")).status).toBe(201);
      const wrongTypes = await worker.heartbeat("wi_x", "1" as never);
      expect(wrongTypes.error?.issues?.map((issue) => issue.path)).toEqual(["/attempt"]);
    });
  });
}
