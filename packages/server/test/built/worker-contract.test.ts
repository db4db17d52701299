import { describe } from "vitest";
import { contractSuites } from "../contract/suites.ts";
import { ContractChecker, checkedServices } from "../openapi/contract-checker.ts";
import { servedDocument } from "../openapi/document.ts";
import { builtWorkerService } from "./worker-service.ts";

const checker = new ContractChecker(await servedDocument());

describe("the built Worker (dist/workers.js bundled by wrangler) under wrangler dev", () => {
  contractSuites(checkedServices(builtWorkerService, checker));
});
