import { describe } from "vitest";
import { contractSuites } from "../contract/suites.ts";
import { ContractChecker, checkedServices } from "../openapi/contract-checker.ts";
import { servedDocument } from "../openapi/document.ts";
import { builtBinService } from "./bin-service.ts";

const checker = new ContractChecker(await servedDocument());

describe("the built bin (dist/main.js) in a process of its own, SQLite file", () => {
  contractSuites(checkedServices(builtBinService, checker));
});
