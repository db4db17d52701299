// Checking a CONTEXT.md before delegating with it.
import { CONTEXT_MD_TEMPLATE, lintContextMd } from "@task-context/protocols/context-md";

const { ok, issues } = lintContextMd(CONTEXT_MD_TEMPLATE);
console.log(ok); // true: the template's placeholders are warnings, not errors
for (const issue of issues) console.log(issue.severity, issue.line, issue.message);
// "warning" 4 "A template placeholder is still here: replace it with the task's own details or delete the line."
// … and the same at lines 7, 10 and 13
