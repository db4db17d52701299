import packageJson from "../package.json" with { type: "json" };

/** The name the server gives in `initialize` / `server/discover`. */
export const SERVER_NAME = "task-context";

/** The package's version, given as the server's version. */
export const SERVER_VERSION: string = packageJson.version;
