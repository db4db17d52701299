// A document that does not match Sage's shape: every problem, with the line of the first.
import { InvalidSubagentContextError, parseSubagentContext } from "@task-context/protocols/sage";

try {
  parseSubagentContext('<subagent-context version="2.0"/>');
} catch (error) {
  if (!InvalidSubagentContextError.isInstance(error)) throw error;
  for (const issue of error.issues) console.error(issue.line, issue.path, issue.message);
  // 1 "/version" 'version must be "1.0", not the string "2.0".'
  // 1 "/task" "task is required: an object with id, type, description and, optionally, story-ref."
  // 1 "/instructions" "instructions is required: an array."
  // 1 "/scope" "scope is required: an object with files-to-modify, files-to-read and files-forbidden."
  // 1 "/context" "context is required: an array."
  // 1 "/output-format" "output-format is required: an object with required-fields and optional-fields."
}
