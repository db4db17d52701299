import { describe, expect, it } from "vitest";
import { CredentialError } from "./credential-error.ts";
import { credentialedFetch } from "./credentialed-fetch.ts";
import { OAuthTokens } from "./oauth-tokens.ts";

/** A `fetch` that answers from `answer` and notes each request (URL, headers, redirect mode). */
function recording(answer: (url: string) => Response) {
  const sent: { url: string; headers: Headers; redirect: RequestRedirect | undefined }[] = [];
  const base: typeof fetch = async (input, init) => {
    sent.push({
      url: String(input),
      headers: new Headers(init?.headers),
      redirect: init?.redirect,
    });
    return answer(String(input));
  };
  return { sent, base };
}

const credentials = [
  { kind: "bearer", scheme: "bearer", token: "t0ken-1" },
  { kind: "api_key", scheme: "key", location: "query", name: "key", key: "k 1" },
  { kind: "api_key", scheme: "cookie", location: "cookie", name: "sid", key: "c1" },
] as const;

describe("credentialedFetch", () => {
  it("sends every credential, by hand-followed redirects within the origin only", async () => {
    const { sent, base } = recording((url) =>
      url.startsWith("https://agent.example/a2a")
        ? new Response(null, { status: 307, headers: { location: "/moved" } })
        : url.startsWith("https://agent.example/moved")
          ? new Response(null, { status: 302, headers: { location: "https://evil.example/x" } })
          : new Response("{}"),
    );
    const send = credentialedFetch({
      credentials,
      origins: new Set(["https://agent.example"]),
      tokens: new OAuthTokens(() => 0, base),
      base,
    });
    const answer = await send("https://agent.example/a2a", { method: "POST", body: "{}" });
    expect(answer.status).toBe(302);
    expect(sent.map((request) => request.url)).toEqual([
      "https://agent.example/a2a?key=k+1",
      "https://agent.example/moved?key=k+1",
    ]);
    expect(sent.map((request) => request.redirect)).toEqual(["manual", "manual"]);
    expect(sent[1]?.headers.get("authorization")).toBe("Bearer t0ken-1");
    expect(sent[1]?.headers.get("cookie")).toBe("sid=c1");
  });

  it("sends nothing to an origin that is not the agent's", async () => {
    const { sent, base } = recording(() => new Response("{}"));
    const send = credentialedFetch({
      credentials,
      origins: new Set(["https://agent.example"]),
      tokens: new OAuthTokens(() => 0, base),
      base,
    });
    const error = await send("https://agent.example.evil.test/a2a").catch((thrown) => thrown);
    expect(error).toBeInstanceOf(CredentialError);
    expect((error as Error).message).toBe(
      "The service sends this agent's credentials only to https://agent.example (its card's interfaces), not to https://agent.example.evil.test: it did not send the request",
    );
    expect(sent).toEqual([]);
  });
});
