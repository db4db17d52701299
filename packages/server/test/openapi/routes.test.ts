// The OpenAPI document and the app's routing table name the same operations: no route the app
// serves is missing from the document, and the document lists no route the app does not serve.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { servedDocument } from "./document.ts";

const sourceOf = (folder: string) =>
  readdirSync(new URL(`../../src/${folder}/`, import.meta.url))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .map((name) => readFileSync(new URL(`../../src/${folder}/${name}`, import.meta.url), "utf8"))
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
          .map((route) => `${route.method} ${route.path.replace(/:([^/]+)/g, "{$1}")}`),
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

  it("are registered with their literal paths, so searching for a path finds its route", () => {
    const database = openNodeDatabase(":memory:");
    const store = new SqlStore(database);
    try {
      const app = createApp({ store, auth: { adminToken: "routes-test-admin-token" } });
      const source = `${sourceOf("routes")}\n${sourceOf("mcp")}`;
      const paths = new Set(
        app.routes.map((route) => route.path).filter((path) => !path.endsWith("*")),
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
