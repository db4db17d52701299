// The errors any route can give, asked of every operation the OpenAPI document lists: no token,
// the other role's token, an unknown id, a body that is not JSON, a body too large, too many
// requests, a store that fails. Each answer must be one the document declares (the checker sees
// every one), and each error status an operation declares must come from one of these requests
// or, for the states of a run (409, 422), from the contract suites.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import type { DeliveryStore } from "../../src/delivery/delivery-store.ts";
import { newAgentToken } from "../../src/delivery/ids.ts";
import { artifactCompletion, createRun, runInput, taskStage } from "../contract/client.ts";
import type { Service } from "../contract/harness.ts";
import { inProcess } from "../node/services.ts";
import { ContractChecker, checkedServices, type OpenApiDocument } from "./contract-checker.ts";
import { servedDocument } from "./document.ts";

type Json = Record<string, unknown>;

const document = await servedDocument();
const checker = new ContractChecker(document);

/** An operation of the document, as the requests below need it. */
interface Target {
  id: string;
  method: string;
  path: string;
  schemes: string[];
  hasQuery: boolean;
  /** The example of its JSON request body, when it has one. */
  body: string | undefined;
  declared: number[];
}

function exampleBody(operation: Json): string | undefined {
  const content = (operation.requestBody as Json | undefined)?.content as Json | undefined;
  const schema = (content?.["application/json"] as Json | undefined)?.schema as Json | undefined;
  if (schema === undefined) return undefined;
  const name = typeof schema.$ref === "string" ? schema.$ref.split("/").at(-1) : undefined;
  const examples = name === undefined ? [{}] : document.components.schemas[name]?.examples;
  return JSON.stringify((examples as unknown[])[0]);
}

const targets: Target[] = Object.entries(document.paths as OpenApiDocument["paths"]).flatMap(
  ([path, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const value = operation as unknown as Json;
      const parameters = (value.parameters as { in: string }[] | undefined) ?? [];
      return {
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        schemes: ((value.security as Json[] | undefined) ?? []).flatMap(Object.keys),
        hasQuery: parameters.some((parameter) => parameter.in === "query"),
        body: exampleBody(value),
        declared: Object.keys(operation.responses).map(Number),
      };
    }),
);

/** The statuses each operation answered with here. */
const produced = new Map<string, Set<number>>();

interface Call {
  token?: string | undefined;
  body?: string | undefined;
  contentType?: string;
  /** Path parameters to fill with an id nothing has. */
  unknown?: string;
  query?: string;
}

const unknownValues: Record<string, string> = {
  run_id: "run_00000000000000000000000000",
  id: "wi_00000000000000000000000000",
  artifact_id: "art_00000000000000000000000000",
  name: "nothing.v1",
};

/** Sends one request for `target` to `service` (checked by the checker) and records its status. */
async function send(
  service: Pick<Service, "fetch" | "baseUrl">,
  target: Target,
  values: Record<string, string>,
  call: Call = {},
): Promise<number> {
  const path = target.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === call.unknown ? (unknownValues[name] ?? "unknown") : (values[name] ?? name),
  );
  const headers: Record<string, string> = {};
  if (call.token !== undefined) headers.Authorization = `Bearer ${call.token}`;
  const body = call.body ?? (target.method === "GET" ? undefined : target.body);
  if (body !== undefined) headers["Content-Type"] = call.contentType ?? "application/json";
  const response = await service.fetch(`${service.baseUrl}${path}${call.query ?? ""}`, {
    method: target.method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  await response.body?.cancel();
  let statuses = produced.get(target.id);
  if (statuses === undefined) {
    statuses = new Set();
    produced.set(target.id, statuses);
  }
  statuses.add(response.status);
  return response.status;
}

const where = (target: Target, what: string) =>
  `${target.id} (${target.method} ${target.path}) ${what}`;

describe("the errors every operation can answer with", () => {
  let service: Service;
  let values: Record<string, string>;
  let tokens: { adminToken: string; agentToken: string };
  /** The token an operation accepts, the admin's when it accepts both. */
  const allowed = (target: Target) =>
    target.schemes.length === 0 ? undefined : tokens[target.schemes[0] as keyof typeof tokens];

  beforeAll(async () => {
    service = await checkedServices(inProcess, checker)();
    const { run, agent } = await createRun(
      service,
      runInput([taskStage("draft"), taskStage("edit")]),
    );
    const worker = await agent("worker");
    const claimed = await worker.claimNext();
    const done = await worker.complete(claimed.body.work_item.id, artifactCompletion(1));
    values = {
      run_id: run.run_id,
      id: claimed.body.work_item.id,
      artifact_id: done.body.artifact_id ?? "",
      name: "work-item.v1",
    };
    tokens = { adminToken: service.adminToken, agentToken: worker.token ?? "" };
  });
  afterAll(() => service.stop());

  it("401 without a token, 403 with the other role's", async () => {
    for (const target of targets.filter((target) => target.schemes.length > 0)) {
      expect(await send(service, target, values), where(target, "without a token")).toBe(401);
      if (target.schemes.length !== 1) continue;
      const other = target.schemes[0] === "adminToken" ? tokens.agentToken : tokens.adminToken;
      const status = await send(service, target, values, { token: other });
      expect(status, where(target, "with the other role's token")).toBe(403);
    }
  });

  it("404 for each unknown id in the path", async () => {
    for (const target of targets) {
      for (const [, name = ""] of target.path.matchAll(/\{([^}]+)\}/g)) {
        const status = await send(service, target, values, {
          token: allowed(target),
          unknown: name,
        });
        expect(status, where(target, `with an unknown ${name}`)).toBe(404);
      }
    }
  });

  it("400 for a body that is not valid JSON, an unknown query parameter or a query that is not UTF-8, 415 for a body that is not JSON", async () => {
    for (const target of targets) {
      const token = allowed(target);
      expect(
        await send(service, target, values, { token, query: "?text=%FF" }),
        where(target, "with a query string that is not UTF-8"),
      ).toBe(400);
      if (target.body !== undefined) {
        expect(
          await send(service, target, values, { token, body: "{" }),
          where(target, "with malformed JSON"),
        ).toBe(400);
        const text = { token, body: "goal=x", contentType: "text/plain" };
        expect(await send(service, target, values, text), where(target, "with a text body")).toBe(
          415,
        );
      }
      if (target.hasQuery) {
        const query = { token, query: "?unexpected=1" };
        expect(
          await send(service, target, values, query),
          where(target, "with an unknown query parameter"),
        ).toBe(400);
      }
    }
  });

  it("403 for a view link without requeue rights, on the operations that take view links", async () => {
    const admin = {
      Authorization: `Bearer ${tokens.adminToken}`,
      "Content-Type": "application/json",
    };
    const created = await service.fetch(`${service.baseUrl}/v1/runs/${values.run_id}/view-links`, {
      method: "POST",
      headers: admin,
      body: "{}",
    });
    const { url } = (await created.json()) as { url: string };
    const view = new URL(url).searchParams.get("view") ?? "";
    for (const target of targets.filter((target) => target.schemes.includes("viewToken"))) {
      if (!target.declared.includes(403)) continue;
      const status = await send(service, target, values, { query: `?view=${view}` });
      expect(status, where(target, "with a read-only view link")).toBe(403);
    }
  });

  it("413 for a body over the limit, on every operation that takes a body", async () => {
    const limited = await checkedServices(inProcess, checker)({ bodyBytes: 256 });
    try {
      for (const target of targets.filter((target) => target.method !== "GET")) {
        const body = JSON.stringify({ padding: "x".repeat(1024) });
        expect(await send(limited, target, values, { body }), where(target, "with 1 KiB")).toBe(
          413,
        );
      }
    } finally {
      await limited.stop();
    }
  });

  it("429 with Retry-After for one request too many, on every operation", async () => {
    const limited = await checkedServices(
      inProcess,
      checker,
    )({
      rateLimit: { requests: 1, windowMs: 60_000 },
    });
    try {
      for (const target of targets) {
        await limited.advance(60_000);
        await send(limited, target, values);
        expect(await send(limited, target, values), where(target, "the second time")).toBe(429);
      }
    } finally {
      await limited.stop();
    }
  });

  it("500 when the store fails, on every operation that reads a run", async () => {
    // Every operation of the store fails; it is not one whose changes the app's background
    // duties follow (no onRunChanged), as a store of one's own need not be.
    const failing = new Proxy({} as DeliveryStore, {
      get: (_, key) =>
        key === "onRunChanged"
          ? undefined
          : async () => {
              throw new Error("the disk is gone");
            },
    });
    const app = createApp({
      store: failing,
      auth: { adminToken: tokens.adminToken },
      limits: { rateLimit: false },
    });
    const broken = {
      baseUrl: "http://service.test",
      fetch: checker.fetch(async (url: string, init?: RequestInit) => app.request(url, init)),
    };
    const agentToken = newAgentToken(values.run_id ?? "", "agt_00000000000000000000000000");
    for (const target of targets.filter((target) => target.schemes.length > 0)) {
      const token = target.schemes[0] === "adminToken" ? tokens.adminToken : agentToken;
      expect(
        await send(broken, target, values, { token }),
        where(target, "on a failing store"),
      ).toBe(500);
    }
  });

  it("declares no error status that neither these requests nor the contract suites produce", () => {
    const unproduced = targets.map((target) => ({
      operation: target.id,
      statuses: target.declared.filter(
        (status) => status >= 400 && !produced.get(target.id)?.has(status),
      ),
    }));
    // 409 and 422 are states of a run the contract suites reach; a public operation reads no
    // run, so only an unforeseen failure gives its 500; 503 comes from a Worker without a
    // binding only (GET /v1/runs without RUN_DIRECTORY: test/workers/run-directory.test.ts).
    const states = (target: Target) =>
      target.declared.filter(
        (status) =>
          status === 409 ||
          status === 422 ||
          status === 503 ||
          (status === 500 && target.schemes.length === 0),
      );
    expect(unproduced).toEqual(
      targets.map((target) => ({ operation: target.id, statuses: states(target) })),
    );
  });
});
