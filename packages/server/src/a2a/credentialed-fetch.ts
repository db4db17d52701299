// The `fetch` of an attempt to an agent registered with credentials: each request carries them
// (an Authorization header, an API key in its header, query parameter or cookie, an OAuth 2 access
// token) and goes only to the origins of the agent's card's interfaces. Redirects are followed by
// hand, within that origin only: a redirect elsewhere is answered as it came, never followed with
// the credentials. An OAuth 2 token the agent refuses (HTTP 401) is replaced once.
import type { AgentCredential } from "./card-credentials.ts";
import { CredentialError } from "./credential-error.ts";
import type { OAuthTokens } from "./oauth-tokens.ts";

/** The most redirects within the agent's origin one request follows. */
const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What a credentialed fetch needs. */
export interface CredentialedFetchOptions {
  credentials: readonly AgentCredential[];
  /** The origins the credentials may go to: those of the card's interfaces. */
  origins: ReadonlySet<string>;
  /** Where OAuth 2 access tokens come from. */
  tokens: OAuthTokens;
  base: typeof fetch;
}

/** A `fetch` over `base` that sends `credentials` with each request, to `origins` only. */
export function credentialedFetch(options: CredentialedFetchOptions): typeof fetch {
  const { credentials, origins, tokens, base } = options;
  const oauth = credentials.filter((credential) => credential.kind === "oauth2");

  /** One request to `url` with the credentials; `refused`: the OAuth tokens last refused. */
  async function send(url: URL, init: RequestInit | undefined, refused: string[]) {
    if (!origins.has(url.origin)) {
      throw new CredentialError(
        `The service sends this agent's credentials only to ${[...origins].join(", ")} (its card's interfaces), not to ${url.origin}: it did not send the request`,
      );
    }
    const target = new URL(url);
    const headers = new Headers(init?.headers);
    const cookies: string[] = [];
    const sent: string[] = [];
    for (const credential of credentials) {
      if (credential.kind === "bearer") {
        headers.set("authorization", `Bearer ${credential.token}`);
      } else if (credential.kind === "oauth2") {
        const token = await tokens.token(credential, refused[oauth.indexOf(credential)]);
        sent.push(token);
        headers.set("authorization", `Bearer ${token}`);
      } else if (credential.location === "header") {
        headers.set(credential.name, credential.key);
      } else if (credential.location === "query") {
        target.searchParams.set(credential.name, credential.key);
      } else {
        cookies.push(`${credential.name}=${credential.key}`);
      }
    }
    if (cookies.length > 0) headers.set("cookie", cookies.join("; "));
    const response = await base(target.href, { ...init, headers, redirect: "manual" });
    return { response, sent };
  }

  /** `send`, following redirects within the origin. */
  async function follow(start: URL, init: RequestInit | undefined, refused: string[]) {
    let url = start;
    let request = init;
    for (let hops = 0; ; hops += 1) {
      const answer = await send(url, request, refused);
      const location = answer.response.headers.get("location");
      if (!REDIRECTS.has(answer.response.status) || location === null || hops === MAX_REDIRECTS) {
        return answer;
      }
      const next = new URL(location, url);
      // Elsewhere: answered as it came (the attempt fails with its status), never followed.
      if (next.origin !== url.origin) return answer;
      await answer.response.body?.cancel();
      if (answer.response.status === 303) {
        const { body: _, ...rest } = request ?? {};
        request = { ...rest, method: "GET" };
      }
      url = next;
    }
  }

  return async (input, init) => {
    if (input instanceof Request) {
      throw new CredentialError("The service sends credentials only with requests made from a URL");
    }
    const url = new URL(String(input));
    const first = await follow(url, init, []);
    if (first.response.status !== 401 || oauth.length === 0) return first.response;
    // The agent refused the token (expired early, revoked): a new one, once.
    await first.response.body?.cancel();
    return (await follow(url, init, first.sent)).response;
  };
}
