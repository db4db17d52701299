import { ArgumentError } from "@task-context/core";

/**
 * Parses `TASK_CONTEXT_CORS_ORIGINS`: a comma-separated list of origins allowed to call the API
 * from a browser (`https://app.example.com,http://localhost:5173`). Undefined or empty → CORS stays
 * off. Each entry must be an origin — a scheme, a host and maybe a port, nothing else.
 */
export function parseCorsOrigins(text: string | undefined): { origins: string[] } | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const origins = text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new ArgumentError({
        argument: "TASK_CONTEXT_CORS_ORIGINS",
        message: `expected comma-separated origins such as https://app.example.com (a scheme, a host and an optional port, no path or trailing slash), got ${JSON.stringify(origin)}.`,
      });
    }
  }
  return { origins };
}
