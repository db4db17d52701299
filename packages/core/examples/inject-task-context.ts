// Injecting the task context into a prompt, and splitting it off again.
import { injectTaskContext, splitTaskContext } from "@task-context/core";

//#region injectTaskContext
injectTaskContext("What does the logo say?", "We are building Lumen, a note-taking app.");
// "[Task Context]\nWe are building Lumen, a note-taking app.\n\n[Request]\nWhat does the logo say?"
//#endregion

//#region splitTaskContext
splitTaskContext("[Task Context]\nBuilding Lumen.\n\n[Request]\nDescribe it.");
// { context: "Building Lumen.", prompt: "Describe it." }
//#endregion
