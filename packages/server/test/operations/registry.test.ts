// The registries: every operation of the contract's registry is exposed by every entry it should
// be — a route at its method and path, an operation of the OpenAPI document with its client
// method and audience, a method of the typed client, an MCP tool when it says `mcp`, a handler —
// and no entry exposes anything that is not an operation.

import { readdirSync } from "node:fs";
import {
  type OperationDefinition,
  type OperationId,
  openApiDocument,
  operations,
} from "@task-context/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { A2A_SERVER_ROUTES } from "../../src/a2a-server/a2a-server-routes.ts";
import { createApp } from "../../src/app.ts";
import { createServiceClient } from "../../src/client.ts";
import { routePath } from "../../src/http/operation-routes.ts";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { handlers } from "../../src/operations.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { artifactCompletion, createRun, runInput, taskStage } from "../contract/client.ts";
import type { Service } from "../contract/harness.ts";
import { mcpClient } from "../contract/mcp.contract.ts";
import { inProcess } from "../node/services.ts";

const all = Object.values(operations) as OperationDefinition[];
const ids = Object.keys(operations) as OperationId[];
const document = openApiDocument();

describe("the contract's operation registry", () => {
  it("names each operation by its id", () => {
    expect(all.map((operation) => operation.id)).toEqual(ids);
    expect(new Set(all.map((operation) => `${operation.method} ${operation.path}`)).size).toBe(
      all.length,
    );
  });

  it("has a handler for every operation, and no handler for anything else", () => {
    expect(Object.keys(handlers).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(typeof handlers[id].handle, id).toBe("function");
  });

  it("has each handler in src/operations/ under its operation's id, in kebab case", () => {
    const kebab = (id: string) => id.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
    const files = readdirSync(new URL("../../src/operations/", import.meta.url));
    expect(files.sort()).toEqual(ids.map((id) => `${kebab(id)}.ts`).sort());
  });

  it("gives every idempotent operation the scope its keys are hashed with, and no other", () => {
    const scoped = ids.filter((id) => "idempotencyScope" in handlers[id]);
    expect(scoped).toEqual(all.filter((operation) => operation.idempotent).map((op) => op.id));
  });

  it("traces only agents' operations", () => {
    for (const id of ids.filter((id) => "span" in handlers[id])) {
      expect(operations[id].audience, id).toBe("agent");
    }
  });
});

describe("the service's entries", () => {
  let service: Service;
  beforeAll(async () => {
    service = await inProcess();
  });
  afterAll(() => service.stop());

  it("route every operation at its method and path, and nothing else but /mcp and the A2A server's", () => {
    const database = openNodeDatabase(":memory:");
    const store = new SqlStore(database);
    try {
      const app = createApp({ store, auth: { adminToken: "registry-test-admin-token" } });
      const routes = app.routes.map((route) => `${route.method} ${route.path}`);
      // The app's middleware (`ALL *`) is no route of its own.
      expect(routes.filter((route) => !route.startsWith("ALL /*")).sort()).toEqual(
        [
          ...all.map((operation) => `${operation.method} ${routePath(operation.path)}`),
          "ALL /mcp",
          ...A2A_SERVER_ROUTES,
        ].sort(),
      );
    } finally {
      store.close();
      database.close();
    }
  });

  it("serve the registry's OpenAPI document, each operation with its client method and audience", async () => {
    const served = await (await service.fetch(`${service.baseUrl}/v1/openapi.json`)).json();
    expect(served).toEqual(document);
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, value]) => {
        const entry = value as Record<string, unknown>;
        return {
          id: entry.operationId,
          method: method.toUpperCase(),
          path,
          client: entry["x-task-context-client"],
          stream: entry["x-task-context-client-stream"],
          audience: entry["x-task-context-audience"],
        };
      }),
    );
    expect(documented).toEqual(
      all.map((operation) => ({
        id: operation.id,
        method: operation.method,
        path: operation.path,
        client: operation.client?.method,
        stream: operation.client?.streamMethod,
        audience: operation.audience,
      })),
    );
  });

  it("give the typed client a method for each operation's client name, and no other method", () => {
    const client = createServiceClient({ url: service.baseUrl });
    // The client's own methods and the generated plain ones it inherits.
    const methods: string[] = [];
    for (
      let prototype = Object.getPrototypeOf(client);
      prototype !== Object.prototype;
      prototype = Object.getPrototypeOf(prototype)
    ) {
      methods.push(
        ...Object.getOwnPropertyNames(prototype).filter((name) => name !== "constructor"),
      );
    }
    const named = all.flatMap((operation) =>
      operation.client === undefined
        ? []
        : [operation.client.method, operation.client.streamMethod ?? []].flat(),
    );
    expect(new Set(named).size).toBe(named.length);
    expect(methods.sort()).toEqual(named.sort());
  });

  it("list an MCP tool for each operation that says `mcp`, and no other tool", async () => {
    const { agent } = await createRun(service, runInput([taskStage("draft")]));
    const worker = await agent("worker");
    const client = await mcpClient(service, worker.token);
    try {
      const { tools } = await client.listTools();
      const declared = new Map(
        all.flatMap((operation) =>
          operation.mcp === undefined ? [] : [[operation.mcp.tool, operation.mcp]],
        ),
      );
      expect(tools.map((tool) => tool.name).sort()).toEqual([...declared.keys()].sort());
      for (const tool of tools) {
        const mcp = declared.get(tool.name);
        expect({ title: tool.title, description: tool.description }, tool.name).toEqual({
          title: mcp?.title,
          description: mcp?.description,
        });
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(mcp?.readOnly);
      }
      // Operations that share a tool share its description (the claim: by id, or the next one).
      for (const [name, mcp] of declared) {
        const sharing = all.filter((operation) => operation.mcp?.tool === name);
        for (const operation of sharing) expect(operation.mcp, operation.id).toEqual(mcp);
      }
      // And each tool runs its operation: the claim tool claims, the completion tool completes.
      const claimed = await client.callTool({ name: "claim_work_item", arguments: {} });
      const item = (claimed.structuredContent as { work_item: { id: string } }).work_item;
      const done = await client.callTool({
        name: "complete_work_item",
        arguments: { work_item_id: item.id, ...artifactCompletion(1) },
      });
      expect(done.structuredContent).toMatchObject({ work_item_id: item.id, status: "completed" });
    } finally {
      await client.close();
    }
  });
});
