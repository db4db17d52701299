/**
 * What went wrong, in words fit to return to an agent: the non-blank message of something thrown
 * or given as an abort reason (a string, or an Error of any realm), `otherwise` for anything else —
 * null, a number, an Error without a message, an object whose getters throw. An operating-system
 * error is reported by its code only: its message names absolute paths.
 */
export function thrownMessage(
  thrown: unknown,
  otherwise = "it threw something that is not an Error",
): string {
  try {
    if (typeof thrown === "string" && thrown.trim() !== "") return thrown;
    if (typeof thrown === "object" && thrown !== null) {
      const { message, code, syscall } = thrown as {
        message?: unknown;
        code?: unknown;
        syscall?: unknown;
      };
      if (typeof code === "string" && typeof syscall === "string") {
        return `the operating system refused ${syscall} (${code})`;
      }
      if (typeof message === "string" && message.trim() !== "") return message;
    }
  } catch {
    // A getter that throws: the value says nothing usable.
  }
  return otherwise;
}
