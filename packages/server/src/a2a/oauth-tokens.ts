// OAuth 2 access tokens for A2A agents registered with client credentials (RFC 6749 §4.4): asked of
// the scheme's token URL (the client's id and secret go there and nowhere else), kept until
// shortly before they expire by the service's clock, asked for again then or after the agent
// refused one (HTTP 401), and one request at a time per client however many attempts need it.
import { readBoundedBody } from "./bounded-body.ts";
import type { AgentCredential } from "./card-credentials.ts";
import { CredentialError } from "./credential-error.ts";

type OAuthCredential = Extract<AgentCredential, { kind: "oauth2" }>;

/** The most of a token endpoint's answer the service reads. */
const TOKEN_ANSWER_BYTES = 64 * 1024;

/** How long a token request may take. */
const TOKEN_TIMEOUT_MS = 10_000;

/** A token is renewed this long before it expires (at most half its lifetime). */
const RENEW_BEFORE_MS = 30_000;

interface CachedToken {
  token: string;
  /** When it is asked for again (ms since the epoch, by the clock); Infinity: only after a 401. */
  renewAt: number;
}

const keyOf = (credential: OAuthCredential) =>
  JSON.stringify([credential.token_url, credential.client_id, credential.scopes]);

/** `application/x-www-form-urlencoded` of one value, as client_secret_basic wants it (RFC 6749 §2.3.1). */
const formEncoded = (value: string) => encodeURIComponent(value).replaceAll("%20", "+");

/** The access tokens of the OAuth 2 clients of one dispatcher's agents. */
export class OAuthTokens {
  readonly #clock: () => number;
  readonly #fetch: typeof fetch;
  readonly #cached = new Map<string, CachedToken>();
  readonly #asking = new Map<string, Promise<string>>();

  /** Tokens whose lifetimes `clock` measures, asked for through `fetcher`. */
  constructor(clock: () => number, fetcher: typeof fetch = (input, init) => fetch(input, init)) {
    this.#clock = clock;
    this.#fetch = fetcher;
  }

  /**
   * An access token for `credential`: the kept one while it is fresh, else a new one. `refused`:
   * the agent answered 401 to that token, so it is dropped and a new one asked for (unless another
   * request already replaced it). `CredentialError` when the token endpoint does not give one.
   */
  async token(credential: OAuthCredential, refused?: string): Promise<string> {
    const key = keyOf(credential);
    const cached = this.#cached.get(key);
    if (cached !== undefined && refused === cached.token) this.#cached.delete(key);
    else if (cached !== undefined && this.#clock() < cached.renewAt) return cached.token;
    let asking = this.#asking.get(key);
    if (asking === undefined) {
      asking = this.#ask(credential).finally(() => this.#asking.delete(key));
      this.#asking.set(key, asking);
    }
    return asking;
  }

  /** The tokens kept now: secrets no failure reason may show. */
  tokens(): string[] {
    return [...this.#cached.values()].map((cached) => cached.token);
  }

  async #ask(credential: OAuthCredential): Promise<string> {
    const where = `The OAuth 2 token endpoint ${credential.token_url}`;
    const body = new URLSearchParams({ grant_type: "client_credentials" });
    if (credential.scopes.length > 0) body.set("scope", credential.scopes.join(" "));
    const basic = btoa(
      `${formEncoded(credential.client_id)}:${formEncoded(credential.client_secret)}`,
    );
    const stop = new AbortController();
    let response: Response;
    try {
      response = await this.#fetch(credential.token_url, {
        method: "POST",
        headers: {
          authorization: `Basic ${basic}`,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: body.toString(),
        // The client's secret is not carried anywhere a redirect points.
        redirect: "manual",
        signal: AbortSignal.any([AbortSignal.timeout(TOKEN_TIMEOUT_MS), stop.signal]),
      });
    } catch (error) {
      throw new CredentialError(
        `${where} could not be reached (${(error as Error).message})`,
        error,
      );
    }
    const read = await readBoundedBody(response, TOKEN_ANSWER_BYTES, stop).catch(() => undefined);
    let answer: Record<string, unknown> = {};
    if (read !== undefined && "bytes" in read) {
      try {
        answer = JSON.parse(new TextDecoder().decode(read.bytes)) as Record<string, unknown>;
      } catch {
        // Not JSON: said below by what is missing.
      }
    }
    if (!response.ok) {
      const said =
        typeof answer.error === "string"
          ? ` (error ${JSON.stringify(answer.error.slice(0, 100))})`
          : "";
      throw new CredentialError(
        `${where} answered HTTP ${response.status}${said}: check the client id and secret the agent was registered with`,
      );
    }
    const token = answer.access_token;
    const type = answer.token_type;
    if (
      typeof token !== "string" ||
      token === "" ||
      (typeof type === "string" && type.toLowerCase() !== "bearer")
    ) {
      throw new CredentialError(`${where} answered no bearer access_token`);
    }
    const expiresIn = Number(answer.expires_in);
    const lifetime = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : undefined;
    const renewAt =
      lifetime === undefined
        ? Number.POSITIVE_INFINITY
        : this.#clock() + lifetime - Math.min(RENEW_BEFORE_MS, lifetime / 2);
    this.#cached.set(keyOf(credential), { token, renewAt });
    return token;
  }
}
