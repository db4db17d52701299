// Checking a work item from the delivery service's inbox before acting on it.
import { validate } from "@task-context/protocols";
import { type WorkItem, workItemSchema } from "@task-context/protocols/work-item";

//#region checkWorkItem
async function nextWorkItem(inbox: string): Promise<WorkItem | undefined> {
  const response = await fetch(inbox);
  const body: unknown = await response.json();
  const { valid, issues } = validate("work-item.v1", body);
  if (!valid) {
    for (const issue of issues) console.error(issue.path, issue.message);
    return undefined;
  }
  return workItemSchema.parse(body);
}

const workItem = await nextWorkItem("https://delivery.example/inbox");
if (workItem?.kind === "review") console.log(workItem.review_context.review_criteria);
// for the review shown above: ["creativity", "logic", "readability"]
//#endregion
