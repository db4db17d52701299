// Vitest setup: the AI SDK's warning log during the tests. Provider warnings the tests provoke
// are asserted in the tools' results, so they are not printed; a deprecation warning fails the
// call that caused it, so the package never goes back to a deprecated AI SDK function unnoticed.
import type { LogWarningsFunction } from "ai";

const logWarnings: LogWarningsFunction = ({ warnings }) => {
  const deprecated = warnings.filter((warning) => warning.type === "deprecated");
  if (deprecated.length > 0)
    throw new Error(`The AI SDK reported a deprecation: ${JSON.stringify(deprecated)}`);
};

globalThis.AI_SDK_LOG_WARNINGS = logWarnings;
