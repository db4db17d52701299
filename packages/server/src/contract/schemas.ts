// The contract's schemas moved to @task-context/contract: this re-export keeps the server's
// modules that import them from here compiling until they import the package (then it goes).
export * from "@task-context/contract";
