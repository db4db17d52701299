import manifest from "../package.json" with { type: "json" };

/** The package's version, printed by `task-context --version`. */
export const VERSION: string = manifest.version;
