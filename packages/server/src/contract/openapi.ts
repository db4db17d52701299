// The OpenAPI document is built by @task-context/contract from its operation registry: this
// re-export keeps the server's modules that import its type from here compiling until they
// import the package (then it goes).
export type { OpenApiDocument } from "@task-context/contract";
