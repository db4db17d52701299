import { describe } from "vitest";
import { contractSuites } from "../contract/suites.ts";
import { ContractChecker, checkedServices } from "../openapi/contract-checker.ts";
import { servedDocument } from "../openapi/document.ts";
import { inProcessOnPostgres, overSocketOnPostgres, reason, title } from "./services.ts";

// Every answer of the suites is checked against the service's OpenAPI document as it arrives.
const checker = new ContractChecker(await servedDocument());

describe.skipIf(reason !== undefined)(title("on PostgreSQL, in process (app.request)"), () => {
  contractSuites(checkedServices(inProcessOnPostgres, checker));
});

describe.skipIf(reason !== undefined)(title("on PostgreSQL, over a socket (127.0.0.1)"), () => {
  contractSuites(checkedServices(overSocketOnPostgres, checker));
});
