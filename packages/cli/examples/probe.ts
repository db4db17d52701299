import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  childProcessSubagentPath,
  mcpServerPath,
  type ProbePath,
  probePassed,
  probePaths,
  renderProbeTable,
} from "@task-context/cli/probe";

// A workspace with a CONTEXT.md (the probe copies it; this folder is never changed).
const workspace = await mkdtemp(join(tmpdir(), "probe-example-"));
await writeFile(join(workspace, "CONTEXT.md"), "# Goal\nShip Lumen's export menu.\n");

// Your own path: send a request the way your agent does and return what the recipient received.
// This one keeps only the last 40 characters of CONTEXT.md, as an API that cuts the front does.
const cutsTheFront: ProbePath = {
  name: "my tool (cuts the front)",
  send: async ({ content }) => content.slice(-40),
};

const results = await probePaths({
  workspace,
  paths: [childProcessSubagentPath(), mcpServerPath(), cutsTheFront],
});
process.stdout.write(renderProbeTable(results));
// In CI, fail the job instead: process.exitCode = probePassed(results) ? 0 : 1
if (!probePassed(results)) console.log("A path dropped or cut the task context.");
