// A small OAuth 2 token endpoint for the tests (RFC 6749 §4.4, client credentials, real HTTP on
// loopback): it checks the client's id and secret (HTTP Basic), issues short-lived bearer tokens
// whose expiry the injected clock decides, and says whether a token is valid now.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface TokenEndpoint {
  /** The token URL. */
  url: string;
  /** Every token request, in order: the form's fields and whether the client was admitted. */
  requests: { form: Record<string, string>; admitted: boolean }[];
  /** Every token issued, in order. */
  issued: string[];
  /** True when `authorization` is `Bearer <a token issued, unexpired and not revoked>`. */
  admits(request: IncomingMessage): boolean;
  /** Revokes every token issued so far. */
  revokeAll(): void;
  close(): Promise<void>;
}

/** Starts a token endpoint for one client, issuing tokens that live `lifetimeS` seconds by `clock`. */
export async function startTokenEndpoint(options: {
  clientId: string;
  clientSecret: string;
  lifetimeS: number;
  clock: () => number;
}): Promise<TokenEndpoint> {
  const requests: TokenEndpoint["requests"] = [];
  const issued: string[] = [];
  const expiry = new Map<string, number>();
  const expected = `Basic ${btoa(`${options.clientId}:${options.clientSecret}`)}`;
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      const admitted =
        request.method === "POST" &&
        request.headers.authorization === expected &&
        form.grant_type === "client_credentials";
      requests.push({ form, admitted });
      response.setHeader("content-type", "application/json");
      if (!admitted) {
        response.statusCode = 401;
        response.end(JSON.stringify({ error: "invalid_client" }));
        return;
      }
      const token = `tok-${issued.length + 1}-${crypto.randomUUID()}`;
      issued.push(token);
      expiry.set(token, options.clock() + options.lifetimeS * 1000);
      response.end(
        JSON.stringify({
          access_token: token,
          token_type: "Bearer",
          expires_in: options.lifetimeS,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`;
  return {
    url,
    requests,
    issued,
    admits(request) {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      const ends = token === undefined ? undefined : expiry.get(token);
      return ends !== undefined && options.clock() < ends;
    },
    revokeAll() {
      expiry.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
