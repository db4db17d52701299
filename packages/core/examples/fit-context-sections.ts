// Fitting CONTEXT.md into a small budget by whole sections, the goal and key terms first. Run by
// src/views/fit-context-sections.test.ts.
import { fitContextSections } from "@task-context/core";

/** Fits a CONTEXT.md into 100 characters. */
export async function fitContextSectionsExample() {
  //#region fitContextSections
  const fitted = await fitContextSections(
    "# Task context\n\n## What we are building\nLumen, a notes app.\n\n" +
      "## Other details\nRun pnpm test before every commit.\n\n## Key terminology\n- **Vault**: notes.",
    { unit: "characters", amount: 100 },
  );
  // { content: "# Task context\n\n## What we are building\nLumen, a notes app.\n\n## Key terminology\n- **Vault**: notes.",
  //   kept: ["Task context", "What we are building", "Key terminology"], dropped: ["Other details"], cut: false }
  //#endregion
  return fitted;
}
