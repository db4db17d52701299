/**
 * What {@link findPosingText} finds: text in earlier work that poses as one of our formats (the
 * task-context headers, a Context Protocol block, a Sage document), as a system prompt or a turn
 * of a chat template, or that hides characters a reader does not see.
 */
export type PosingKind =
  | "task-context-header"
  | "context-tag"
  | "subagent-context-tag"
  | "system-tag"
  | "unicode-tag-characters"
  | "bidi-override"
  | "zero-width-run";

/** Every {@link PosingKind}, in the order the docs list them. */
export const POSING_KINDS: readonly PosingKind[] = [
  "task-context-header",
  "context-tag",
  "subagent-context-tag",
  "system-tag",
  "unicode-tag-characters",
  "bidi-override",
  "zero-width-run",
];

/**
 * Each kind in words, with its article. No label holds a tag or a header line itself, so that a
 * label shown to a model is not a finding of its own.
 */
export const POSING_LABELS: Readonly<Record<PosingKind, string>> = {
  "task-context-header": "a forged task-context header line",
  "context-tag": "a Context Protocol context tag",
  "subagent-context-tag": "a Sage subagent-context tag",
  "system-tag": "a system, instructions or chat-template tag",
  "unicode-tag-characters": "a run of invisible Unicode tag characters",
  "bidi-override": "a run of bidirectional override, embedding or isolate controls",
  "zero-width-run": "a run of zero-width characters",
};

/** Whitespace other than a line break. */
const SPACE = "[^\\S\\r\\n\\u2028\\u2029]";

/**
 * An XML-style element named `name`, opening (`<name>`, `<name attribute="…">`, `<name/>`) or
 * closing (`</name>`), written in lower case, as our formats and chat templates write it, or in
 * capitals. A capitalised name (`<Context value={theme}>`, `<System />`) is a JSX component in a
 * code sample, not a finding. The attributes are at most 256 characters without `<` or `>`, so a
 * scan from a `<` stops at the next one: linear time on any input.
 */
function element(name: string): string {
  return `<\\/?(?:${name}|${name.toUpperCase()})(?=[\\s/>])[^<>]{0,256}>`;
}

/** One form of text that poses as a format or as instructions. */
export interface PosingTag {
  kind: PosingKind;
  /** Source of a pattern without capture groups that starts with `<` or `[`. */
  pattern: string;
}

/**
 * The tags and header lines, one entry per form, most specific first (at one place the first
 * entry that matches is reported). Every form is matched in inline code and inside ``` fences too:
 * a forged tag in a code block still reaches the recipient's model as the same characters.
 */
export const POSING_TAGS: readonly PosingTag[] = [
  // The Context Protocol v1 block that opens a subagent prompt (spec 004):
  // <context>, </context>, <context version="1">.
  { kind: "context-tag", pattern: element("context") },
  // Sage's bounded per-subagent document (spec 002): <subagent-context version="1">, </subagent-context>.
  { kind: "subagent-context-tag", pattern: element("subagent-context") },
  // The headers injectTaskContext writes (spec 000), each on a line of its own: a line that is
  // exactly [Task Context] or [Request], in any case, with whitespace around it (and [TaskContext],
  // [Task-Context], [task_context]). In a sentence, or escaped as \[Request], it is not a header.
  {
    kind: "task-context-header",
    pattern: `(?<=^${SPACE}*)\\[${SPACE}*(?:[Tt][Aa][Ss][Kk](?:${SPACE}{1,8}|[_-])?[Cc][Oo][Nn][Tt][Ee][Xx][Tt]|[Rr][Ee][Qq][Uu][Ee][Ss][Tt])${SPACE}*\\](?=${SPACE}*$)`,
  },
  // Claude Code's reminders, which a model reads as its harness speaking.
  { kind: "system-tag", pattern: element("system-reminder") },
  // A system message, in prompts that wrap each role in XML.
  { kind: "system-tag", pattern: element("system") },
  // The system prompt, as agent frameworks and prompt-injection payloads name it.
  { kind: "system-tag", pattern: element("system_prompt") },
  { kind: "system-tag", pattern: element("system-prompt") },
  // Instruction blocks, the form many agent prompts give their rules.
  { kind: "system-tag", pattern: element("instructions") },
  // ChatML (OpenAI, Qwen and many open models): a message opens with <|im_start|> and its role.
  {
    kind: "system-tag",
    pattern: "<\\|im_start\\|>(?:system|developer|user|assistant|tool)?",
  },
  // Every other special token of a chat template: <|im_end|>, <|system|>, <|user|>, <|end|>,
  // Llama 3's <|start_header_id|> and <|eot_id|>, gpt-oss's <|start|> and <|message|>, <|endoftext|>.
  { kind: "system-tag", pattern: "<\\|[a-z_]{1,32}\\|>" },
  // Llama 2's system block: <<SYS>>, <</SYS>>.
  { kind: "system-tag", pattern: "<<\\/?SYS>>" },
  // Llama 2's and Mistral's instruction markers: [INST], [/INST].
  { kind: "system-tag", pattern: "\\[\\/?INST\\]" },
];

/** The characters of a zero-width run, for a character class. */
const ZERO_WIDTH = "\\u200B-\\u200D\\u2060\\uFEFF\\u180E";

/**
 * Runs of characters a reader does not see, one finding per run. Legitimate text keeps what it
 * needs: a right-to-left mark (U+200F) is not among them, and one zero-width joiner in an emoji
 * sequence or one zero-width non-joiner in a Persian word is not a run.
 */
export const INVISIBLE_RUNS: ReadonlyArray<{ kind: PosingKind; pattern: string }> = [
  // Unicode tag characters U+E0000–U+E007F (a high surrogate U+DB40 and a low one U+DC00–U+DC7F):
  // each mirrors an ASCII character, invisible, and models read them as text ("ASCII smuggling").
  { kind: "unicode-tag-characters", pattern: "(?:\\uDB40[\\uDC00-\\uDC7F])+" },
  // Bidirectional embeddings and overrides U+202A–U+202E and isolates U+2066–U+2069: they reorder
  // what a reader sees against what a model reads ("Trojan Source", CVE-2021-42574).
  { kind: "bidi-override", pattern: "[\\u202A-\\u202E\\u2066-\\u2069]+" },
  // Two or more of zero-width space, non-joiner and joiner (U+200B–U+200D), word joiner (U+2060),
  // zero-width no-break space (U+FEFF, except a byte order mark at offset 0) and Mongolian vowel
  // separator (U+180E): the carriers of zero-width steganography.
  { kind: "zero-width-run", pattern: `[${ZERO_WIDTH}]{2,}` },
];

/**
 * Where the scan stops: where a form may start, judged by the character or two after it, so that
 * most `<` and `[` of code and prose (`<p>`, `<section>`, `a < b`, `[link]`) and a lone
 * zero-width character (one non-joiner in a Persian word) are passed over inside the expression:
 * `<` before the first two letters of a tag name (or `/` and them), `|` or `<`; `[` before
 * whitespace, `t`, `r` (the headers), `I` or `/` ([INST]); every bidirectional control; a
 * zero-width character before another. Every alternative consumes exactly its one character.
 * A new form needs its start here; the property test that tries every form at every offset fails
 * otherwise.
 */
export const SCAN_STOPS = [
  "<(?=\\/?(?:co|CO|su|SU|sy|SY|in|IN)|\\||<)",
  "\\[(?=[tTrRI/\\s])",
  "[\\u202A-\\u202E\\u2066-\\u2069]",
  `[${ZERO_WIDTH}](?=[${ZERO_WIDTH}])`,
].join("|");

/**
 * Where a run of tag characters starts, looked for only in a text that holds a U+DB40: a
 * surrogate in the expression makes the whole scan of a two-byte string about twice as slow.
 */
export const TAG_CHARACTER_STOP = "\\uDB40(?=[\\uDC00-\\uDC7F])";

/**
 * An emoji tag sequence, the one legitimate use of tag characters: after the black flag U+1F3F4,
 * 2 to 6 tag digits or lower-case tag letters and the cancel tag U+E007F, e.g. the flag of
 * Scotland (🏴 + `gbsct` + cancel). Too short to hide an instruction, so not a finding.
 */
export const FLAG_TAG_RUN = /^(?:\uDB40[\uDC30-\uDC39\uDC61-\uDC7A]){2,6}\uDB40\uDC7F$/;

/** The black flag U+1F3F4 that an emoji tag sequence follows. */
export const FLAG_BASE = "\uD83C\uDFF4";

/** Any one character of {@link INVISIBLE_RUNS}, for escaping inside a forged tag. */
export const INVISIBLE_CHARACTER =
  /\uDB40[\uDC00-\uDC7F]|[\u180E\u200B-\u200D\u2060\u202A-\u202E\u2066-\u2069\uFEFF]/g;
