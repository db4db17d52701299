// The contract's examples moved to @task-context/contract (`examples`): this re-export keeps
// the tests that import them from here working until they import the package (then it goes).
import { examples } from "@task-context/contract";

export const { completeExamples, createRunExample, workItemExample } = examples;
