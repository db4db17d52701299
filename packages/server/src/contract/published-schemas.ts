// The published JSON Schemas moved to @task-context/contract: this re-export keeps the tests
// that import them from here working until they import the package (then it goes).
export { publishedSchemas } from "@task-context/contract";
