import { describe } from "vitest";
import { contractSuites } from "../contract/suites.ts";
import { inProcess, overSocket } from "./services.ts";

describe("on Node, in process (app.request), SQLite in memory", () => {
  contractSuites(inProcess);
});

describe("on Node, over a socket (127.0.0.1), SQLite file", () => {
  contractSuites(overSocket);
});
