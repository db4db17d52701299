// Test helper: is an answer a page shows the answer a real service gave, modulo what differs from
// run to run? Ids (`run_…`, `agt_…`, `wi_…`, `art_…`, `evt_…`), agent tokens (`tc_…`) and hashes
// are paired in order of appearance, consistently (one shown id is always the same real id, and no
// two shown ids are one real id); timestamps are any timestamp. Everything else must be identical.

const VARYING =
  /tc_[A-Za-z0-9_-]+|\b(?:run|agt|wi|art|evt)_[0-9a-z]{26}\b|\b[0-9a-f]{64}\b|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;

const isTimestamp = (token: string) => /^\d{4}-/.test(token);
const kindOf = (token: string) =>
  isTimestamp(token)
    ? "timestamp"
    : token.startsWith("tc_")
      ? "token"
      : (token.split("_")[0] ?? "");

/** Shown ids and their real counterparts, as the pages' answers revealed them. */
export class IdMap {
  readonly #real = new Map<string, string>();
  readonly #shown = new Map<string, string>();

  /** Records that `shown` is `real`; false when either is already paired with another. */
  pair(shown: string, real: string): boolean {
    const known = this.#real.get(shown);
    const claimed = this.#shown.get(real);
    if (known !== undefined || claimed !== undefined) return known === real && claimed === shown;
    this.#real.set(shown, real);
    this.#shown.set(real, shown);
    return true;
  }

  /** `text` with every shown id this map knows replaced by its real counterpart. */
  toReal(text: string): string {
    return text.replace(VARYING, (token) => this.#real.get(token) ?? token);
  }

  /** The shown ids in `text` this map does not know. */
  unknownIn(text: string): string[] {
    return [...text.matchAll(VARYING)]
      .map((match) => match[0])
      .filter((token) => !isTimestamp(token) && !this.#real.has(token));
  }
}

/**
 * Undefined when `real` is `shown` modulo ids, tokens, hashes and timestamps (pairing the ids in
 * `ids`), else why not. Both are compared as text: give JSON in one formatting (see `compactJson`).
 */
export function differenceFrom(shown: string, real: string, ids: IdMap): string | undefined {
  const shownTokens = [...shown.matchAll(VARYING)].map((match) => match[0]);
  const realTokens = [...real.matchAll(VARYING)].map((match) => match[0]);
  const shownShape = shown.replace(VARYING, (token) => `<${kindOf(token)}>`);
  const realShape = real.replace(VARYING, (token) => `<${kindOf(token)}>`);
  if (shownShape !== realShape)
    return `the page shows\n${shownShape}\nthe service answered\n${realShape}`;
  for (const [index, token] of shownTokens.entries()) {
    const counterpart = realTokens[index] ?? "";
    if (!isTimestamp(token) && !ids.pair(token, counterpart)) {
      return `the page's ${token} is ${counterpart} here, but another id before`;
    }
  }
  return undefined;
}

/** The JSON values of `text`, one after another (as several `curl -s` print them, unseparated). */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (character === "\\") index++;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === "{" || character === "[") {
      if (depth++ === 0) start = index;
    } else if ((character === "}" || character === "]") && --depth === 0) {
      values.push(JSON.parse(text.slice(start, index + 1)));
    }
  }
  return values;
}

/** JSON text (one value, or several) in one formatting: one compact value a line, keys as sent. */
export function compactJson(text: string): string {
  return jsonValues(text)
    .map((value) => JSON.stringify(value))
    .join("\n");
}
