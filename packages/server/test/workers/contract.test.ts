import { describe } from "vitest";
import { contractSuites } from "../contract/suites.ts";
import { onWorkers } from "./services.ts";

describe("on workerd: the router Worker and a Durable Object per run (SQLite)", () => {
  contractSuites(onWorkers);
});
