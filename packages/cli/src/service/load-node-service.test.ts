import { SQLITE_NODE as SERVER_SQLITE_NODE } from "@task-context/server/node";
import { describe, expect, it } from "vitest";
import { SQLITE_NODE } from "./load-node-service.ts";

describe("SQLITE_NODE", () => {
  it("is the Node the service's embedded SQLite needs, as the server says", () => {
    // Kept apart so that the help text does not load the service; held equal here.
    expect(SQLITE_NODE).toBe(SERVER_SQLITE_NODE);
  });
});
