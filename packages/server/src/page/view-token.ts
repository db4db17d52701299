// View links: a short-lived token bound to one run that lets a browser read the run's page and
// event stream (and, when granted, requeue its dead letters) without the admin token. The token
// is an HMAC-SHA256 (Web Crypto: Node and Workers alike) over the run id, the expiry and the
// rights, keyed from the admin token: nothing is stored, and changing the admin token revokes
// every link.
import { encodeUtf8 } from "@task-context/core/internal";
import { base64url, constantTimeEqual } from "../delivery/ids.ts";

/** The longest a view link lives: one day. */
export const MAX_VIEW_TTL_SECONDS = 86_400;

/** How long a view link lives when the request does not say: one hour. */
export const DEFAULT_VIEW_TTL_SECONDS = 3600;

/** The address of a run's page with a view token, under the request's own origin. */
export function viewLinkUrl(origin: string, runId: string, token: string): string {
  return `${origin}/runs/${encodeURIComponent(runId)}?view=${encodeURIComponent(token)}`;
}

/** What a view token grants. */
export interface ViewGrant {
  runId: string;
  /** Seconds since the epoch after which the token is refused. */
  expiresAt: number;
  /** Whether the holder may requeue the run's dead letters from the page. */
  canRequeue: boolean;
}

/** Why a view token was refused. */
export type ViewTokenProblem = "malformed" | "forged" | "expired" | "other-run";

const tokenPattern = /^v1\.([A-Za-z0-9_-]{1,100})\.([0-9]{1,12})\.(r|rq)\.([A-Za-z0-9_-]{43})$/;

/** Signs and checks view tokens with a key derived from the admin token. */
export interface ViewTokens {
  /**
   * A token for `grant`: `v1.<run_id>.<expiry>.<r|rq>.<mac>`. It names its run so that a
   * genuine token of another run is told apart from a forged one (404, not 401).
   */
  sign(grant: ViewGrant): Promise<string>;
  /**
   * The grant of `token` for `runId` at `nowSeconds`, or why it is refused: `other-run` for a
   * genuine token of another run (the caller answers 404, as for a run it cannot see).
   */
  verify(
    token: string,
    runId: string,
    nowSeconds: number,
  ): Promise<{ grant: ViewGrant } | { problem: ViewTokenProblem }>;
}

const message = (runId: string, expiresAt: number, rights: string) =>
  encodeUtf8(`task-context view link v1\n${runId}\n${expiresAt}\n${rights}`);

/**
 * View tokens keyed from `adminToken`: the HMAC key is HMAC-SHA256(admin token, "task-context
 * view links"), so the admin token itself never keys anything a browser sees.
 */
export function viewTokens(adminToken: string): ViewTokens {
  let key: ReturnType<typeof crypto.subtle.importKey> | undefined;
  const hmacKey = () => {
    key ??= (async () => {
      const root = await crypto.subtle.importKey(
        "raw",
        encodeUtf8(adminToken),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const derived = await crypto.subtle.sign("HMAC", root, encodeUtf8("task-context view links"));
      return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, [
        "sign",
      ]);
    })();
    return key;
  };
  const mac = async (runId: string, expiresAt: number, rights: string) =>
    base64url(
      new Uint8Array(
        await crypto.subtle.sign("HMAC", await hmacKey(), message(runId, expiresAt, rights)),
      ),
    );

  return {
    async sign({ runId, expiresAt, canRequeue }) {
      const rights = canRequeue ? "rq" : "r";
      return `v1.${runId}.${expiresAt}.${rights}.${await mac(runId, expiresAt, rights)}`;
    },
    async verify(token, runId, nowSeconds) {
      const match = tokenPattern.exec(token);
      if (match === null) return { problem: "malformed" };
      const [, tokenRunId, expiry, rights, given] = match as unknown as string[] as [
        string,
        string,
        string,
        string,
        string,
      ];
      const expiresAt = Number(expiry);
      if (!constantTimeEqual(await mac(tokenRunId, expiresAt, rights), given)) {
        return { problem: "forged" };
      }
      if (expiresAt <= nowSeconds) return { problem: "expired" };
      if (tokenRunId !== runId) return { problem: "other-run" };
      return { grant: { runId, expiresAt, canRequeue: rights === "rq" } };
    },
  };
}
