import { CONTEXT_MISSING_MESSAGE } from "@task-context/core";

/**
 * What every command that reads a workspace's CONTEXT.md prints when there is none: the guiding
 * message the MCP server gives (TASK_CONTEXT_MISSING), then the hint.
 */
export const NO_CONTEXT_MD = `task-context: ${CONTEXT_MISSING_MESSAGE} There is no CONTEXT.md at the workspace root\nhint: write one with \`task-context init\`\n`;

/** The same for a CONTEXT.md that is not a plain file in the folder: a link, a FIFO, a device. */
export const NOT_A_PLAIN_CONTEXT_MD = `task-context: ${CONTEXT_MISSING_MESSAGE} CONTEXT.md exists but is not a regular file (a directory, a symbolic link, a FIFO or a device); write it as a plain file\nhint: make CONTEXT.md a plain file inside the folder, not a symbolic link, FIFO or device (\`task-context init --force\` writes the template)\n`;

/** What `lint`, `render` and `mcp` print for a `[dir]` that does not exist. */
export const noSuchFolder = (dir: string) =>
  `task-context: the folder ${dir} does not exist\nhint: check the path, or write the folder and its CONTEXT.md with \`task-context init ${dir}\`\n`;
