// The exported schemas are zod schemas: parse with them, infer types from them.
import { type WorkItem, workItemSchema } from "@task-context/protocols/work-item";

function handle(body: unknown): WorkItem {
  return workItemSchema.parse(body);
}
