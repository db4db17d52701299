import { secureHeaders } from "hono/secure-headers";

/**
 * The security headers of every answer of the service: the app's, and those a runtime adapter
 * gives itself (a request it cannot even route, on Node).
 */
export const serviceSecureHeaders = secureHeaders({
  // A page sets its own policy (with its script's nonce); everything else gets this one.
  overwrite: false,
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    styleSrc: ["'unsafe-inline'"],
    frameAncestors: ["'none'"],
  },
});
