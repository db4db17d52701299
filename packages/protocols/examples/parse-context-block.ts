// Receiving a Context Protocol v1 block: use it, or fall back to the project files.
import { parseContextBlock } from "@task-context/protocols/context-block";

const parsed = parseContextBlock(
  "<context>\nproject:\n  path: /srv/app\n  stack: hono\nconventions:\n  summary: ESM only.\n</context>\n\nAdd a health route.",
);
switch (parsed.status) {
  case "found":
    console.log(parsed.block.project.stack, parsed.request); // "hono" "Add a health route."
    break;
  case "missing":
    console.log("no block: read docs/project.json and docs/CONVENTIONS.md");
    break;
  default: // "invalid" or "unsupported-version"
    for (const issue of parsed.issues) console.log(issue.line, issue.path, issue.message);
}
