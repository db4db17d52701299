/**
 * The message of something thrown or given as an abort reason: a non-blank string, or the
 * non-blank `message` of an Error (of any realm); `otherwise` for anything else — null, a number,
 * an Error without a message, an object whose getters throw.
 */
export function thrownMessage(thrown: unknown, otherwise: string): string {
  try {
    if (typeof thrown === "string" && thrown.trim() !== "") return thrown;
    if (typeof thrown === "object" && thrown !== null) {
      const { message } = thrown as { message?: unknown };
      if (typeof message === "string" && message.trim() !== "") return message;
    }
  } catch {
    // A getter that throws: the value says nothing usable.
  }
  return otherwise;
}
