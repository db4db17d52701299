// The published JSON Schemas, for tools that speak JSON Schema rather than zod (here ajv).
import workItemJsonSchema from "@task-context/protocols/schemas/work-item.v1.schema.json" with {
  type: "json",
};
import { Ajv2020 } from "ajv/dist/2020.js";

const isWorkItem = new Ajv2020().compile(workItemJsonSchema);
console.log(workItemJsonSchema.$id, isWorkItem({ kind: "task" })); // "urn:task-context:schema:work-item.v1" false
