// The delivery service's contract, read without a service: an operation as it is defined, and the
// OpenAPI document every service serves at /v1/openapi.json.
import { openApiDocument, operations } from "@task-context/contract";

const { completeWorkItem } = operations;
console.log(completeWorkItem.method, completeWorkItem.path, completeWorkItem.audience);
// POST /v1/work-items/{id}/complete agent

//#region openApiDocument
const document = openApiDocument({ serverUrl: "https://tc.example.com" });
const completion = document.paths["/v1/work-items/{id}/complete"]?.post as Record<string, unknown>;
console.log(completion["x-task-context-client"]); // complete
//#endregion
