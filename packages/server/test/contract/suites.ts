import { a2aSuite } from "./a2a.contract.ts";
import { agentsSuite } from "./agents.contract.ts";
import { cancelSuite } from "./cancel.contract.ts";
import { eventsSuite } from "./events.contract.ts";
import type { StartService } from "./harness.ts";
import { leasesSuite } from "./leases.contract.ts";
import { longPollSuite } from "./long-poll.contract.ts";
import { pageSuite } from "./page.contract.ts";
import { publicSuite } from "./public.contract.ts";
import { receiptsSuite } from "./receipts.contract.ts";
import { reliabilitySuite } from "./reliability.contract.ts";
import { runsSuite } from "./runs.contract.ts";
import { secretsSuite } from "./secrets.contract.ts";
import { securitySuite } from "./security.contract.ts";
import { spec003Suite } from "./spec-003.contract.ts";
import { stagesSuite } from "./stages.contract.ts";
import { traceContextSuite } from "./trace-context.contract.ts";
import { untrustedContentSuite } from "./untrusted-content.contract.ts";
import { wellFormedTextSuite } from "./well-formed-text.contract.ts";

/** Every contract suite, against services `start` starts. */
export function contractSuites(start: StartService): void {
  spec003Suite(start);
  stagesSuite(start);
  leasesSuite(start);
  reliabilitySuite(start);
  eventsSuite(start);
  longPollSuite(start);
  securitySuite(start);
  publicSuite(start);
  secretsSuite(start);
  receiptsSuite(start);
  pageSuite(start);
  wellFormedTextSuite(start);
  traceContextSuite(start);
  untrustedContentSuite(start);
  a2aSuite(start);
  runsSuite(start);
  agentsSuite(start);
  cancelSuite(start);
}
