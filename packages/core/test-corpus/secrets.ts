// The corpus that measures @task-context/core's secret detector: fake secrets of every kind it
// knows (recall) and look-alikes that are not secrets (false positives). Every value is generated
// here from a fixed seed, so no literal in the repository looks like a live key to a scanner, and
// none of them is a real credential. Used by src/secrets/*.test.ts and bench/secrets.bench.ts.

/** A fake secret inside the line of text where it would sit in a CONTEXT.md. */
export interface SecretSample {
  /** The kind the detector must report. */
  kind: string;
  /** Text before the secret on its line. */
  before: string;
  /** The fake secret: exactly what must be redacted. */
  secret: string;
  /** Text after the secret on its line. */
  after: string;
}

/** Text that must not be reported. */
export interface LookAlike {
  /** What it is, e.g. "a SHA-256 hex digest". */
  name: string;
  text: string;
}

/** Deterministic pseudo-random generator (mulberry32), so the corpus is the same in every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const random = generator(12);
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALPHANUMERIC = UPPER + LOWER + DIGITS;
const BASE64 = `${ALPHANUMERIC}+/`;
const BASE64URL = `${ALPHANUMERIC}_-`;
const HEX = "0123456789abcdef";

/** `length` characters drawn from `alphabet`. */
export function fake(alphabet: string, length: number): string {
  let text = "";
  for (let index = 0; index < length; index++) {
    text += alphabet[Math.floor(random() * alphabet.length)];
  }
  return text;
}

const base64url = (text: string) =>
  btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const pemBody = (lines: number, separator: string) =>
  Array.from({ length: lines }, () => fake(BASE64, 64)).join(separator);

/** Fake secrets of every kind the detector knows, as they appear in real files. */
export const SECRET_SAMPLES: readonly SecretSample[] = [
  {
    kind: "private-key",
    before: "",
    secret: `-----BEGIN RSA PRIVATE KEY-----\n${pemBody(6, "\n")}\n-----END RSA PRIVATE KEY-----`,
    after: "",
  },
  {
    kind: "private-key",
    before: '  "private_key": "',
    secret: `-----BEGIN PRIVATE KEY-----\\n${pemBody(4, "\\n")}\\n-----END PRIVATE KEY-----`,
    after: '\\n",',
  },
  {
    kind: "private-key",
    before: "",
    secret: `-----BEGIN OPENSSH PRIVATE KEY-----\n${pemBody(3, "\n")}\n-----END OPENSSH PRIVATE KEY-----`,
    after: "",
  },
  {
    kind: "anthropic-api-key",
    before: "ANTHROPIC_API_KEY=",
    secret: `sk-ant-api03-${fake(BASE64URL, 93)}AA`,
    after: "",
  },
  {
    kind: "openrouter-api-key",
    before: "OpenRouter: ",
    secret: `sk-or-v1-${fake(HEX, 64)}`,
    after: "",
  },
  {
    kind: "openai-api-key",
    before: "OPENAI_API_KEY=",
    secret: `sk-proj-${fake(BASE64URL, 74)}T3BlbkFJ${fake(BASE64URL, 74)}`,
    after: "",
  },
  {
    kind: "openai-api-key",
    before: "legacy key `",
    secret: `sk-${fake(ALPHANUMERIC, 20)}T3BlbkFJ${fake(ALPHANUMERIC, 20)}`,
    after: "` (rotate it)",
  },
  {
    kind: "google-api-key",
    before: "Maps key: ",
    secret: `AIza${fake(BASE64URL, 35)}`,
    after: ".",
  },
  {
    kind: "google-oauth-client-secret",
    before: "client_secret: ",
    secret: `GOCSPX-${fake(BASE64URL, 28)}`,
    after: "",
  },
  {
    kind: "gcp-private-key-id",
    before: '  "private_key_id": "',
    secret: fake(HEX, 40),
    after: '",',
  },
  {
    kind: "aws-access-key-id",
    before: "aws_access_key_id = ",
    secret: `AKIA${fake(UPPER + DIGITS, 16)}`,
    after: "",
  },
  {
    kind: "aws-secret-access-key",
    before: "aws_secret_access_key = ",
    secret: fake(BASE64, 40),
    after: "",
  },
  {
    kind: "azure-storage-account-key",
    before: `DefaultEndpointsProtocol=https;AccountName=lumenassets;AccountKey=`,
    secret: `${fake(BASE64, 86)}==`,
    after: ";EndpointSuffix=core.windows.net",
  },
  {
    kind: "azure-ad-client-secret",
    before: "AZURE_CLIENT_SECRET: ",
    secret: `${fake(ALPHANUMERIC, 3)}8Q~${fake(ALPHANUMERIC, 34)}`,
    after: "",
  },
  {
    kind: "github-token",
    before: "Use `",
    secret: `ghp_${fake(ALPHANUMERIC, 36)}`,
    after: "` for the release bot.",
  },
  {
    kind: "github-token",
    before: "GH_TOKEN=",
    secret: `github_pat_${fake(ALPHANUMERIC, 22)}_${fake(ALPHANUMERIC, 59)}`,
    after: "",
  },
  {
    kind: "gitlab-token",
    before: "CI token ",
    secret: `glpat-${fake(BASE64URL, 20)}`,
    after: "",
  },
  {
    kind: "slack-webhook-url",
    before: "Post alerts to ",
    secret: `https://hooks.slack.com/services/T${fake(UPPER + DIGITS, 8)}/B${fake(UPPER + DIGITS, 10)}/${fake(ALPHANUMERIC, 24)}`,
    after: "",
  },
  {
    kind: "slack-token",
    before: "SLACK_BOT_TOKEN=",
    secret: `xoxb-${fake(DIGITS, 12)}-${fake(DIGITS, 13)}-${fake(ALPHANUMERIC, 24)}`,
    after: "",
  },
  {
    kind: "stripe-api-key",
    before: "Stripe: ",
    secret: `sk_live_${fake(ALPHANUMERIC, 99)}`,
    after: "",
  },
  {
    kind: "stripe-webhook-secret",
    before: "STRIPE_WEBHOOK_SECRET=",
    secret: `whsec_${fake(ALPHANUMERIC, 32)}`,
    after: "",
  },
  {
    kind: "twilio-api-key",
    before: "Twilio key ",
    secret: `SK${fake(HEX, 32)}`,
    after: "",
  },
  {
    kind: "sendgrid-api-key",
    before: "SENDGRID=",
    secret: `SG.${fake(BASE64URL, 22)}.${fake(BASE64URL, 43)}`,
    after: "",
  },
  {
    kind: "npm-access-token",
    before: "//registry/:_authToken=",
    secret: `npm_${fake(ALPHANUMERIC, 36)}`,
    after: "",
  },
  {
    kind: "huggingface-access-token",
    before: "HF_TOKEN=",
    secret: `hf_${fake(LOWER + UPPER, 34)}`,
    after: "",
  },
  {
    kind: "groq-api-key",
    before: "groq: ",
    secret: `gsk_${fake(ALPHANUMERIC, 52)}`,
    after: "",
  },
  {
    kind: "xai-api-key",
    before: "XAI_API_KEY=",
    secret: `xai-${fake(ALPHANUMERIC, 80)}`,
    after: "",
  },
  {
    kind: "replicate-api-token",
    before: "REPLICATE_API_TOKEN=",
    secret: `r8_${fake(ALPHANUMERIC, 37)}`,
    after: "",
  },
  {
    kind: "jwt",
    before: "Authorization: Bearer ",
    secret: `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(`{"sub":"${fake(DIGITS, 10)}","name":"Ada","iat":1516239022}`)}.${fake(BASE64URL, 43)}`,
    after: "",
  },
  {
    kind: "url-password",
    before: "DATABASE_URL=postgres://lumen:",
    secret: `${fake(ALPHANUMERIC, 12)}!`,
    after: "@db.internal:5432/lumen",
  },
  {
    kind: "url-password",
    before: "Fetch from https://deploy:",
    secret: fake(ALPHANUMERIC, 16),
    after: "@git.example.com/lumen.git",
  },
  {
    kind: "password-assignment",
    before: 'DB_PASSWORD="',
    secret: `${fake(ALPHANUMERIC, 10)}#${fake(DIGITS, 2)}`,
    after: '"',
  },
  {
    kind: "password-assignment",
    before: "password: ",
    secret: `Tr0ub4dor&${fake(DIGITS, 2)}`,
    after: "",
  },
  {
    kind: "secret-assignment",
    before: "api_key: ",
    secret: fake(HEX, 32),
    after: "",
  },
  {
    kind: "secret-assignment",
    before: '"client_secret": "',
    secret: fake(BASE64URL, 40),
    after: '"',
  },
];

const sha = (length: number) => fake(HEX, length);
const uuid = () => `${sha(8)}-${sha(4)}-4${sha(3)}-a${sha(3)}-${sha(12)}`;

/** Look-alikes: text that is shaped like a secret, or speaks of one, but holds none. */
export const LOOK_ALIKES: readonly LookAlike[] = [
  { name: "a SHA-1 hex digest", text: `sha1: ${sha(40)}` },
  { name: "a SHA-256 hex digest", text: `Checksum ${sha(64)}  lumen-1.4.2.tgz` },
  { name: "an MD5 digest", text: `md5 = ${sha(32)}` },
  { name: "a UUID", text: `Project id ${uuid()}` },
  { name: "UUIDs in a list", text: `- run ${uuid()}\n- run ${uuid()}` },
  { name: "a git commit id", text: `Fixed in commit ${sha(40)} (see the changelog).` },
  { name: "a short commit id", text: `Reverted ${sha(7)} and ${sha(12)}.` },
  {
    name: "a base64 PNG data URL",
    text: `![logo](data:image/png;base64,iVBORw0KGgo${fake(BASE64, 3000)}=)`,
  },
  {
    name: "a base64 JPEG data URL",
    text: `<img src="data:image/jpeg;base64,/9j/4AAQSkZJRg${fake(BASE64, 2000)}==">`,
  },
  {
    name: "a long camelCase identifier",
    text: "Call `refreshUserAuthenticationTokenBeforeExpiryInMilliseconds()` before retrying.",
  },
  {
    name: "a long constant name",
    text: "Set MAXIMUM_ALLOWED_ACCESS_TOKEN_LIFETIME_IN_SECONDS_FOR_SERVICE_ACCOUNTS in config.",
  },
  {
    name: "prose about passwords",
    text: "Never put a password in CONTEXT.md; the staging password is in the team vault.",
  },
  { name: "a password label without a value", text: "password: see the vault" },
  { name: "a password placeholder", text: 'password: "********"' },
  { name: "a password held in a variable", text: `DB_PASSWORD=${"$"}{DB_PASSWORD}` },
  { name: "a key read from the environment", text: "apiKey: process.env.OPENAI_API_KEY" },
  { name: "a key named by its variable", text: "api_key: OPENAI_API_KEY" },
  { name: "a type annotation", text: "interface Session { token: string; expires: number }" },
  { name: "a template placeholder", text: "api_key: <your API key>" },
  { name: "a URL with a user and no password", text: "Clone https://deploy@git.example.com/x" },
  { name: "a URL with a port", text: "Open http://localhost:5173/settings?tab=keys" },
  {
    name: "a URL with a variable password",
    text: `postgres://app:${"$"}{DB_PASSWORD}@db:5432/app`,
  },
  { name: "an email address", text: "Write to security@lumen.example for a key." },
  { name: "a Stripe publishable key", text: `pk_live_${fake(ALPHANUMERIC, 24)}` },
  { name: "a Twilio account SID", text: `Account AC${sha(32)}` },
  { name: "a scoped package with a version", text: "npm install @lumen/editor@4.2.0" },
  { name: "a hyphenated word with sk-", text: "A desk-based task-sharing flow." },
  { name: "a semantic version and a date", text: "v2.14.0-rc.1 released 2026-11-03T10:00:00Z" },
  { name: "a CSS colour list", text: "Teal #0f766e, warm white #fdfaf5, ink #1f2933." },
  { name: "a token budget", text: "maxTokens: 12000, max_tokens = 4096" },
  {
    name: "a PEM public key",
    text: `-----BEGIN PUBLIC KEY-----\n${pemBody(3, "\n")}\n-----END PUBLIC KEY-----`,
  },
  {
    name: "a certificate",
    text: `-----BEGIN CERTIFICATE-----\n${pemBody(3, "\n")}\n-----END CERTIFICATE-----`,
  },
  { name: "a base64 blob of random bytes", text: fake(BASE64, 4000) },
  { name: "a hex blob", text: fake(HEX, 4000) },
  {
    name: "a CONTEXT.md about a login page",
    text: "## What we are building\nA login page: email and password fields, a 'forgot password' link, and a token refresh every 15 minutes.\n\n## Key terminology\n- Secret santa: the team's gift exchange, not a credential.",
  },
];
