import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The file that marks a folder as the demo's own output, which a later run may replace. */
export const OUTPUT_MARKER = ".task-context-demo";

/**
 * Makes `root` an empty output folder: creates it, or empties it when an earlier run of the demo
 * wrote it. Refuses a folder with other files in it, so that the demo never deletes yours.
 */
export async function prepareOutput(root: string): Promise<void> {
  let entries: string[] = [];
  try {
    entries = await readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (entries.length > 0 && !entries.includes(OUTPUT_MARKER)) {
    throw new Error(
      `The output folder ${root} is not empty and was not written by the demo. Choose another folder with --output, or empty it.`,
    );
  }
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  await writeFile(
    join(root, OUTPUT_MARKER),
    "Written by the task-context demo; the next run replaces this folder.\n",
  );
}
