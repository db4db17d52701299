/**
 * One detection rule: a kind of secret and how to find it.
 *
 * Every pattern is written to run in linear time on JavaScript's backtracking engine: a match can
 * only start where a run of its characters starts (a negative lookbehind instead of `\b`), every
 * repetition is bounded or stops at a character the next part of the pattern needs, and no
 * repetition is nested. `packages/core/bench/secrets.bench.ts` times each rule on 1 MB of hostile
 * input.
 */
export interface SecretRule {
  /** Stable kebab-case id, shown in `[redacted: <kind>]`, warnings and lint findings. */
  kind: string;
  /** The kind in words, with its article: "an OpenAI API key". */
  label: string;
  /**
   * Global pattern with indices (`dg`). When it has capture groups, the first group that matched is
   * the secret (the value of `password=…`, the password of a URL); otherwise the whole match is.
   */
  pattern: RegExp;
  /**
   * Where the scan tries the rule: every match holds one of `characters`, at most `before`
   * characters after its start, at a place that {@link SCAN_STOPS} stops at.
   */
  anchor: { characters: string; before: number };
  /** Values that match but are not secrets (placeholders, references to variables). */
  isPlaceholder?: (value: string) => boolean;
}

/** Characters of base64url tokens; a token match starts only where a run of them starts. */
const TOKEN_START = "(?<![A-Za-z0-9_-])";
/** A token match ends only where its run ends. */
const TOKEN_END = "(?![A-Za-z0-9_-])";

/** Endings of the names a password is assigned to (`password`, `DB_PASSWORD`, `passwd`, …). */
const PASSWORD_NAMES = "password|passwd|passphrase|pwd";
/** Endings of the names a credential is assigned to (`api_key`, `apikey`, `client_secret`, …). */
const CREDENTIAL_NAMES = "secret|key|token";

/** A value that names a secret instead of holding one: `${API_KEY}`, `process.env.X`, `<token>`, `********`. */
function isReference(value: string): boolean {
  return (
    /^(?:\$|<|\{\{|%|\[|process\.env|import\.meta\.env|os\.environ|env\.|secrets\.)/i.test(value) ||
    /^[A-Z][A-Z0-9_]*$/.test(value) ||
    /^([*x.•_-])\1*$/i.test(value) ||
    /^(?:changeme|password|secret|example|placeholder|redacted|your[_-]?\w*|none|null|undefined|true|false)$/i.test(
      value,
    )
  );
}

/**
 * Assignment of a value to a credential-like name: `password = "…"`, `API_KEY: …`, `"token": "…"`.
 * `names` are the endings of such names (`key` also covers `api_key`, `secret_key`, `apikey`); the
 * pattern starts at the `=` or `:` (the name is checked behind it, which keeps the scan fast). The
 * value is quoted (any characters but the quote, 6 to 200) or bare (no spaces or quotes, 8 to
 * 200, not ending in a full stop), and must hold a digit or a symbol, so that prose such as `password: see the vault` passes.
 */
function assignment(names: string): RegExp {
  return new RegExp(
    `(?<=(?:${names})["']?[ \\t]{0,8})(?::=|=>|[:=])[ \\t]{0,8}(?:"([^"\\r\\n]{6,200})(?=")|'([^'\\r\\n]{6,200})(?=')|([^\\s"'\`,;]{7,199}[^\\s"'\`,;.]))`,
    "dgi",
  );
}

const hasDigitOrSymbol = (value: string) => /[0-9]|[^A-Za-z0-9\s]/.test(value);

/** `key` → `[kK][eE][yY]`: a case-insensitive part of a pattern that is not. */
const caseless = (names: string) =>
  names.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);

let stops: RegExp | undefined;

/**
 * Where the scan stops (see find-secrets.ts): one character, with a quick check of what surrounds
 * it. Every match of every rule holds, at most its `anchor.before` characters after its start, one
 * of its `anchor.characters` that passes the check here; a rule is only ever tried at such a stop.
 * A new rule needs its stop here (its corpus sample fails otherwise). Each alternative consumes
 * exactly the one character, and the checks are bounded, so the scan is one linear pass.
 */
export function scanStops(): RegExp {
  stops ??= new RegExp(
    [
      // -----BEGIN …; sk-…, glpat-… (and the other GitLab prefixes), xoxb-…, xapp-…, xai-…
      `-(?:(?=----BEGIN)|(?<=${TOKEN_START}(?:sk|gl(?:pat|dt|rt|ptt|cbt|ft|oas)|xox[abposre]|xapp|xai)-))`,
      // ghp_…, github_pat_…, sk_live_…, rk_test_…, whsec_…, npm_…, hf_…, gsk_…, r8_…; "private_key_id"
      `_(?<=${TOKEN_START}(?:gh[pousr]|github|[rs]k|whsec|npm|hf|gsk|r8)_|"private_)`,
      // AIza…, AKIA…, ASIA…, ABIA…, ACCA…, A3T…
      "A(?=Iza|KIA|SIA|BIA|CCA|3T)(?<![A-Za-z0-9]A)",
      // GOCSPX-…, SG.…
      `G(?:(?=OCSPX-)|(?=\\.)(?<=${TOKEN_START}SG))`,
      // SK and 32 hex digits
      "S(?=K[0-9a-fA-F]{32})",
      // eyJ…
      `J(?<=${TOKEN_START}eyJ)`,
      // Azure AD: 3 characters, a digit, Q~
      "~(?<=\\dQ~)",
      // scheme://user:password@, https://hooks.slack.com/
      ":(?=\\/\\/(?:[^\\s:/?#@]{0,256}:[^\\s:/?#@]{1,256}@|hooks\\.slack\\.com\\/))",
      // password = …, API_KEY: …, "token": "…", AccountKey=…, aws_secret_access_key = …: a name
      // behind, the start of a value ahead (after the rest of `:=` or `=>`)
      `[:=](?<=(?:${caseless(`${PASSWORD_NAMES}|${CREDENTIAL_NAMES}`)})["']?[ \\t]{0,8}[:=])(?=[=>]?[ \\t]{0,8}[^\\s\\\`,;])`,
    ].join("|"),
    "g",
  );
  return stops;
}

let rules: readonly SecretRule[] | undefined;

/**
 * The rules, most specific first: where two rules match the same text, the earlier rule's kind
 * is reported. Written for this project (see docs/secrets.md for why no external rule set).
 * Built on first use, so that a bundle which never scans for secrets drops them.
 */
export function secretRules(): readonly SecretRule[] {
  rules ??= createSecretRules();
  return rules;
}

function createSecretRules(): SecretRule[] {
  return [
    {
      kind: "private-key",
      label: "a private key",
      anchor: { characters: "-", before: 0 },
      // The whole block, up to its END line; a block cut before its END is redacted to the end.
      pattern:
        /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|$(?![\s\S]))/dg,
    },
    {
      kind: "anthropic-api-key",
      label: "an Anthropic API key",
      anchor: { characters: "-", before: 2 },
      pattern: new RegExp(`${TOKEN_START}sk-ant-[A-Za-z0-9_-]{20,300}${TOKEN_END}`, "dg"),
    },
    {
      kind: "openrouter-api-key",
      label: "an OpenRouter API key",
      anchor: { characters: "-", before: 2 },
      pattern: new RegExp(`${TOKEN_START}sk-or-v1-[a-f0-9]{64}${TOKEN_END}`, "dg"),
    },
    {
      kind: "openai-api-key",
      label: "an OpenAI API key",
      anchor: { characters: "-", before: 2 },
      pattern: new RegExp(
        `${TOKEN_START}sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,300}|[A-Za-z0-9]{32,300})${TOKEN_END}`,
        "dg",
      ),
    },
    {
      kind: "google-api-key",
      label: "a Google API key",
      anchor: { characters: "A", before: 0 },
      pattern: new RegExp(`${TOKEN_START}AIza[0-9A-Za-z_-]{35}${TOKEN_END}`, "dg"),
    },
    {
      kind: "google-oauth-client-secret",
      label: "a Google OAuth client secret",
      anchor: { characters: "G", before: 0 },
      pattern: new RegExp(`${TOKEN_START}GOCSPX-[A-Za-z0-9_-]{28}${TOKEN_END}`, "dg"),
    },
    {
      kind: "gcp-private-key-id",
      label: "a Google Cloud service-account key id",
      anchor: { characters: "_", before: 8 },
      pattern: /"private_key_id"[ \t]{0,8}:[ \t]{0,8}"([a-f0-9]{40})"/dg,
    },
    {
      kind: "aws-access-key-id",
      label: "an AWS access key id",
      anchor: { characters: "A", before: 0 },
      pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/dg,
    },
    {
      kind: "aws-secret-access-key",
      label: "an AWS secret access key",
      anchor: { characters: ":=", before: 0 },
      // Starts at the `=` or `:`, its name checked behind it, as the assignment rules do.
      pattern:
        /(?<=(?:aws_?secret_?access_?key|secret-access-key|aws_secret)["']?[ \t]{0,8})(?::=|=>|[:=])[ \t]{0,8}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgi,
    },
    {
      kind: "azure-storage-account-key",
      label: "an Azure storage account key",
      anchor: { characters: ":=", before: 0 },
      pattern: /(?<=AccountKey)=([A-Za-z0-9+/]{86}==)/dgi,
    },
    {
      kind: "azure-ad-client-secret",
      label: "an Azure AD client secret",
      anchor: { characters: "~", before: 5 },
      pattern:
        /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/dg,
    },
    {
      kind: "github-token",
      label: "a GitHub token",
      anchor: { characters: "_", before: 6 },
      pattern: new RegExp(
        `${TOKEN_START}(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})${TOKEN_END}`,
        "dg",
      ),
    },
    {
      kind: "gitlab-token",
      label: "a GitLab token",
      anchor: { characters: "-", before: 5 },
      pattern: new RegExp(
        `${TOKEN_START}(?:glpat|gldt|glrt|glptt|glcbt|glft|gloas)-[A-Za-z0-9_-]{20,300}${TOKEN_END}`,
        "dg",
      ),
    },
    {
      kind: "slack-webhook-url",
      label: "a Slack webhook URL",
      anchor: { characters: ":", before: 5 },
      pattern:
        /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/_-]{20,300}/dg,
    },
    {
      kind: "slack-token",
      label: "a Slack token",
      anchor: { characters: "-", before: 4 },
      pattern: new RegExp(
        `${TOKEN_START}(?:xox[abposre]|xapp)-[0-9]{0,20}-?[A-Za-z0-9-]{10,300}${TOKEN_END}`,
        "dg",
      ),
    },
    {
      kind: "stripe-api-key",
      label: "a Stripe secret key",
      anchor: { characters: "_", before: 2 },
      pattern: new RegExp(
        `${TOKEN_START}[rs]k_(?:live|test)_[A-Za-z0-9]{16,255}${TOKEN_END}`,
        "dg",
      ),
    },
    {
      kind: "stripe-webhook-secret",
      label: "a Stripe webhook signing secret",
      anchor: { characters: "_", before: 5 },
      pattern: new RegExp(`${TOKEN_START}whsec_[A-Za-z0-9]{32,255}${TOKEN_END}`, "dg"),
    },
    {
      kind: "twilio-api-key",
      label: "a Twilio API key",
      anchor: { characters: "S", before: 0 },
      pattern: /(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])/dg,
    },
    {
      kind: "sendgrid-api-key",
      label: "a SendGrid API key",
      anchor: { characters: "G", before: 1 },
      pattern: new RegExp(
        `${TOKEN_START}SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}${TOKEN_END}`,
        "dg",
      ),
    },
    {
      kind: "npm-access-token",
      label: "an npm access token",
      anchor: { characters: "_", before: 3 },
      pattern: new RegExp(`${TOKEN_START}npm_[A-Za-z0-9]{36}${TOKEN_END}`, "dg"),
    },
    {
      kind: "huggingface-access-token",
      label: "a Hugging Face access token",
      anchor: { characters: "_", before: 2 },
      pattern: new RegExp(`${TOKEN_START}hf_[A-Za-z0-9]{30,40}${TOKEN_END}`, "dg"),
    },
    {
      kind: "groq-api-key",
      label: "a Groq API key",
      anchor: { characters: "_", before: 3 },
      pattern: new RegExp(`${TOKEN_START}gsk_[A-Za-z0-9]{48,60}${TOKEN_END}`, "dg"),
    },
    {
      kind: "xai-api-key",
      label: "an xAI API key",
      anchor: { characters: "-", before: 3 },
      pattern: new RegExp(`${TOKEN_START}xai-[A-Za-z0-9]{70,90}${TOKEN_END}`, "dg"),
    },
    {
      kind: "replicate-api-token",
      label: "a Replicate API token",
      anchor: { characters: "_", before: 2 },
      pattern: new RegExp(`${TOKEN_START}r8_[A-Za-z0-9]{37}${TOKEN_END}`, "dg"),
    },
    {
      kind: "jwt",
      label: "a JSON Web Token",
      anchor: { characters: "J", before: 2 },
      pattern: new RegExp(
        `${TOKEN_START}eyJ[A-Za-z0-9_-]{8,4000}\\.eyJ[A-Za-z0-9_-]{8,8000}\\.[A-Za-z0-9_-]{0,2000}${TOKEN_END}`,
        "dg",
      ),
    },
    {
      kind: "url-password",
      label: "a password in a URL",
      anchor: { characters: ":", before: 0 },
      // scheme://user:password@host — only the password is redacted. The pattern starts at the
      // "://" (a literal, found fast) and only checks that a scheme character comes before it.
      pattern: /:\/\/(?<=[A-Za-z0-9]:\/\/)[^\s:/?#@]{0,256}:([^\s:/?#@]{1,256})@/dg,
      isPlaceholder: isReference,
    },
    {
      kind: "password-assignment",
      label: "a password",
      anchor: { characters: ":=", before: 0 },
      pattern: assignment(PASSWORD_NAMES),
      isPlaceholder: (value) => isReference(value) || !hasDigitOrSymbol(value),
    },
    {
      kind: "secret-assignment",
      label: "a credential",
      anchor: { characters: ":=", before: 0 },
      pattern: assignment(CREDENTIAL_NAMES),
      isPlaceholder: (value) => isReference(value) || !hasDigitOrSymbol(value),
    },
  ];
}
