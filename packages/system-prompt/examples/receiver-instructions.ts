// The system prompt of a subagent that receives a Context Protocol v1 block.
import { contextReceiverInstructions } from "@task-context/system-prompt";

//#region contextReceiverInstructions
const system = `You implement one story at a time.\n\n${contextReceiverInstructions()}`;
//#endregion
