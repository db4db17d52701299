// What the demo hands its child-process subagent besides the spawner's TASK_CONTEXT_* variables.

/** The variable with the model settings (JSON `ModelSettings`): the child reaches the same models. */
export const MODELS_VARIABLE = "TASK_CONTEXT_DEMO_MODELS";

/** The variable with the absolute path of the screenshot the child writes alt text for. */
export const SCREENSHOT_VARIABLE = "TASK_CONTEXT_DEMO_SCREENSHOT";

/** The file in the child's directory where it leaves its model exchanges, for the trace. */
export const EXCHANGES_FILE = "model-exchanges.json";
