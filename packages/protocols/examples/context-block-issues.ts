// What parseContextBlock says about a block that is not valid: the line, the field and what to write.
import { parseContextBlock } from "@task-context/protocols/context-block";

const parsed = parseContextBlock(
  "<context>\nproject:\n  path: app\n  stak: hono\nconventions:\n  summary: ESM only.\n</context>\n\nAdd a health route.",
);
if (parsed.status === "invalid") {
  for (const issue of parsed.issues) console.log(issue.line, issue.path, issue.message);
}
// 3 "/project/path" 'project.path must be an absolute path (such as /Users/dev/code/my-app or C:\\code\\my-app), not the text "app".'
// 2 "/project/stack" "project.stack is required: non-empty text, the stack identifier from project.json, e.g. nextjs-prisma."
// 4 "/project/stak" 'Unknown field "stak" in project. Allowed: path, stack, commands.'
