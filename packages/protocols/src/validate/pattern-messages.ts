/**
 * Readable messages for the `pattern`s of the published schemas, keyed by the pattern. ajv's own
 * message quotes the regular expression, which says little about a 300-character date-time
 * pattern. The path and task id messages are the zod schemas' own; a test checks that every
 * pattern of the published schemas has an entry here.
 */
export const patternMessages: ReadonlyMap<string, string> = new Map([
  [
    // z.iso.datetime({ offset: true })
    String.raw`^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|([+-](?:[01]\d|2[0-3]):[0-5]\d)))$`,
    "must be an ISO 8601 date-time with seconds and a time zone, such as 2026-11-20T10:15:30Z or 2026-11-20T11:15:30.5+01:00",
  ],
  [
    // Context Protocol v1: project.path
    String.raw`^(\/|[A-Za-z]:[\\/]|\\\\)`,
    "must be an absolute path (spec 004: project root)",
  ],
  [
    // Sage task id
    "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$",
    "must start with a letter or digit and use only letters, digits, '.', '_' and '-' (at most 128 characters)",
  ],
]);
