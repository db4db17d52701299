export { type NodeWorkspaceOptions, nodeWorkspace } from "./node-workspace.ts";
