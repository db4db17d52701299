// Checking a value against a published schema, by name or $id.
import { validate } from "@task-context/protocols";

const result = validate("context-block.v1", {
  version: 1,
  project: { path: "/srv/app", stack: "remix" },
  conventions: {},
});
console.log(result);
// { valid: false, issues: [{ path: "/conventions/summary",
//   message: "conventions.summary is required: a non-empty string, a 2-5 sentence summary of the key conventions (target 50-100 tokens, at most 200)." }] }
