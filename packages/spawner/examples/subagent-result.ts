// What spawnSubagents resolves with, one per task.
import type { SubagentResult } from "@task-context/spawner";

const example: SubagentResult = {
  id: "export-1",
  status: "success", // "success" | "failure" | "blocked" (from the subagent) | "timeout" | "aborted"
  summary: "Added the export menu",
  filesModified: ["src/export.ts"],
  notes: "Tested with the sample vault.", // optional: the subagent's notes, then the end of its stderr
  recommendedAction: "Review the menu wording.", // optional
  warning:
    "CONTEXT.md was truncated from 12000 to 10000 characters (limit 10000). Consider shortening it.", // optional
  contextIntegrity: "intact", // or "modified"
  contextSha256: "1e2c24681f3bc30d0339abef31595c720f8c6ca03a2c6278b175a2e43b8b7829", // the receipt of its CONTEXT.md
  durationMs: 8421,
  directory: "/srv/agents/run-42/subagents/export-1",
  // issues: [{ path: "/status", message: "…" }] — why an output was refused (status "failure")
};
