// The OpenAPI document and the app's routing table name the same operations: no route the app
// serves is missing from the document, and the document lists no route the app does not serve.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { A2A_SERVER_ROUTES } from "../../src/a2a-server/a2a-server-routes.ts";
import { createApp } from "../../src/app.ts";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { servedDocument } from "./document.ts";

/** The source files of `folder` (relative to this package), joined. */
const sourceOf = (folder: string) =>
  readdirSync(new URL(`../../${folder}/`, import.meta.url))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .map((name) => readFileSync(new URL(`../../${folder}/${name}`, import.meta.url), "utf8"))
    .join("\n");

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

describe("the OpenAPI document and the app's routes", () => {
  it("list the same operations", async () => {
    const database = openNodeDatabase(":memory:");
    const store = new SqlStore(database);
    try {
      const app = createApp({ store, auth: { adminToken: "routes-test-admin-token" } });
      const served = new Set(
        app.routes
          .filter((route) => route.method !== "ALL")
          .map((route) => `${route.method} ${route.path.replace(/:([^/]+)/g, "{$1}")}`)
          // A2A's protocol, not the contract's (as /mcp is MCP's).
          .filter((route) => !(A2A_SERVER_ROUTES as readonly string[]).includes(route)),
      );
      const documented = Object.entries((await servedDocument()).paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((method) => methods.includes(method))
          .map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(documented.length).toBe(new Set(documented).size);
      expect([...served].sort()).toEqual([...documented].sort());
    } finally {
      store.close();
      database.close();
    }
  });

  it("are registered with their literal paths, so searching for a path finds its operation", () => {
    const database = openNodeDatabase(":memory:");
    const store = new SqlStore(database);
    try {
      const app = createApp({ store, auth: { adminToken: "routes-test-admin-token" } });
      // Each operation's path is in its definition as the OpenAPI document writes it.
      const source = [
        sourceOf("../contract/src/operations"),
        sourceOf("src/mcp"),
        sourceOf("src/a2a-server"),
      ].join("\n");
      const paths = new Set(
        app.routes
          .map((route) => route.path.replace(/:([^/]+)/g, "{$1}"))
          .filter((path) => !path.endsWith("*")),
      );
      expect(paths.size).toBeGreaterThan(20);
      const missing = [...paths].filter((path) => !source.includes(`"${path}"`));
      expect(missing).toEqual([]);
    } finally {
      store.close();
      database.close();
    }
  });
});
