import type { MiddlewareHandler } from "hono";

/**
 * The security headers of every answer, as Hono's `secureHeaders` middleware sets them with the
 * service's options (`overwrite: false`; a content security policy of `default-src 'none';
 * style-src 'unsafe-inline'; frame-ancestors 'none'`) — src/http/secure-headers.test.ts holds
 * this list to that middleware's answers.
 */
const securityHeaders: ReadonlyArray<readonly [name: string, value: string]> = [
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Origin-Agent-Cluster", "?1"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-DNS-Prefetch-Control", "off"],
  ["X-Download-Options", "noopen"],
  ["X-Frame-Options", "SAMEORIGIN"],
  ["X-Permitted-Cross-Domain-Policies", "none"],
  ["X-XSS-Protection", "0"],
  // A page sets its own policy (with its script's nonce); everything else gets this one.
  [
    "Content-Security-Policy",
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  ],
];

/**
 * Marks the answers {@link securedAnswer} built: they carry the headers already. (A property, not
 * a WeakSet: thousands of answers a second as weak entries add to the garbage collector's work.)
 */
const securedMark = Symbol("secured answer");
type Marked = Response & { [securedMark]?: true };

/**
 * The security headers of every answer of the service: the app's, and those a runtime adapter
 * gives itself (a request it cannot even route, on Node). A header the answer has is kept (a
 * page's own policy); `X-Powered-By` is removed. An answer of {@link securedAnswer} has them
 * all already and is left as it is.
 */
export const serviceSecureHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const answer = c.res;
  if ((answer as Marked)[securedMark] === true) return;
  const { headers } = answer;
  for (const [name, value] of securityHeaders) {
    if (!headers.has(name)) headers.set(name, value);
  }
  headers.delete("X-Powered-By");
};

/**
 * The headers of a {@link securedAnswer}: `headers` (names in lower case) with the security
 * headers it does not set, as one plain record listed as a `Headers` object lists them (lower
 * case, sorted), so that the answer's header lines are those `serviceSecureHeaders` gives any
 * other answer. Build it once per kind of answer; it is frozen and shared.
 */
export function securedHeaders(
  headers: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const entries = [
    ...Object.entries(headers),
    ...securityHeaders
      .map(([name, value]) => [name.toLowerCase(), value] as const)
      .filter(([name]) => !(name in headers)),
  ].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  return Object.freeze(Object.fromEntries(entries));
}

/**
 * An answer that carries the security headers from the start (`headers` from
 * {@link securedHeaders}): one plain record, which the Node adapter writes as it is, instead of a
 * `Headers` object filled after the handler and copied again into a record for `writeHead`.
 * `serviceSecureHeaders` leaves it as it is.
 */
export function securedAnswer(
  body: string,
  status: number,
  headers: Readonly<Record<string, string>>,
): Response {
  const answer: Marked = new Response(body, { status, headers });
  answer[securedMark] = true;
  return answer;
}
