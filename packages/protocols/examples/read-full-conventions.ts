// Reading the full conventions file when the block's summary is not enough.
import { memoryWorkspace } from "@task-context/core";
import { parseContextBlock, readFullConventions } from "@task-context/protocols/context-block";

const workspace = memoryWorkspace({ "docs/CONVENTIONS.md": "# Conventions\n\nESM only.\n" });
const parsed = parseContextBlock(
  "<context>\nproject:\n  path: /srv/app\n  stack: hono\nconventions:\n  summary: ESM only.\n  fullPath: /srv/app/docs/CONVENTIONS.md\n</context>\n\nAdd a health route.",
);
if (parsed.status === "found") {
  const { path, text } = await readFullConventions(parsed.block, workspace);
  console.log(path, text); // "docs/CONVENTIONS.md" "# Conventions\n\nESM only.\n"
}
