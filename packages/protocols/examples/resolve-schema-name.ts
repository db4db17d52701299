// A schema's $id names the same schema as its name.
import { resolveSchemaName } from "@task-context/protocols";

console.log(resolveSchemaName("urn:task-context:schema:work-item.v1")); // "work-item.v1"
