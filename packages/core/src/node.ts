export { nodeWorkspace } from "./node-workspace.ts";
