// Signed agent cards (A2A 1.0 §8.4) at registration, on the Node service: a card the official
// SDK's server signs (JWS over the JCS-canonical card, the key at the signature's jku) is taken
// and the answer and the agent list say by which key; a tampered card, a wrong key, `alg: none`,
// a jku off the card's origin or that serves nothing, an unknown kid in a pinned key set, and an
// unsigned card when a signature is required are refused with AGENT_CARD_SIGNATURE_INVALID and
// the signature's issue. Keys are made with jose for each run of the file.
import { type AgentCard, generateAgentCardSignature } from "@a2a-js/sdk";
import { base64url, exportJWK, generateKeyPair, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { a2aHarness, lumenRun, refusal, settled } from "./harness.ts";

const adminToken = "a2a-cards-signatures-admin-token-0123456789";
const { service, agent } = a2aHarness(adminToken, { a2aPollMs: 20 });

const kid = "card-key-1";
let signingKey: CryptoKey;
let publicJwk: JWK;
let otherSigningKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  signingKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg: "ES256", use: "sig" };
  const other = await generateKeyPair("ES256", { extractable: true });
  otherSigningKey = other.privateKey;
});

/** The origin of the card's first interface: where the agent serves its key set. */
const originOf = (card: AgentCard) => new URL(card.supportedInterfaces[0]?.url ?? "").origin;

/** Signs as the SDK's server does, naming the key set at `jku(card)` (none: no jku). */
function signer(
  key: () => CryptoKey,
  jku: ((card: AgentCard) => string) | undefined = (card) => `${originOf(card)}/jwks.json`,
) {
  return (card: AgentCard) =>
    generateAgentCardSignature(key(), {
      alg: "ES256",
      typ: "JOSE",
      kid,
      ...(jku === undefined ? {} : { jku: jku(card) }),
    })(card);
}

const skills = [{ id: "copywriting" }];

/** An agent of the SDK whose card is signed with `key`, serving the right key at /jwks.json. */
const signedAgent = (name: string, key: () => CryptoKey) =>
  agent({ name, skills, signer: signer(key), jwks: { keys: [publicJwk] } });
const refusedMessage = (name: string) =>
  `The A2A agent card of "${name}" carries a signature the service cannot verify. Fix the issues listed, or register the agent with a2a.jwks holding its key.`;

describe("an A2A agent card's signatures, at registration", () => {
  it("takes a card the SDK signed, says by which key, and delivers to the agent", async () => {
    const { admin } = await service();
    const signed = await signedAgent("Signed", () => signingKey);
    const run = await admin.createRun(lumenRun());
    const added = await admin.addAgent(run.run_id, { tag: "signed", a2a: { url: signed.url } });
    const signature = {
      verified: true,
      kid,
      alg: "ES256",
      key_source: "jku",
      jku: `${signed.url}/jwks.json`,
    };
    expect(added.a2a?.card_signature).toEqual(signature);
    const [listed] = (await admin.listAgents(run.run_id)).agents;
    expect(listed?.a2a?.card_signature).toEqual(signature);
    expect((await settled(admin, run.run_id)).status).toBe("completed");
  });

  it("refuses a card changed after it was signed, and keeps nothing", async () => {
    const { admin } = await service();
    const sign = signer(() => signingKey);
    const tampered = await agent({
      name: "Signed",
      skills,
      // Signed as "Signed", served as "Impostor": the name is part of what was signed.
      card: async (card) => ({ ...(await sign(card)), name: "Impostor" }),
      jwks: { keys: [publicJwk] },
    });
    const run = await admin.createRun(lumenRun());
    const error = await refusal(
      admin.addAgent(run.run_id, { tag: "impostor", a2a: { url: tampered.url } }),
    );
    expect([error.status, error.code, error.message, error.issues]).toEqual([
      422,
      "AGENT_CARD_SIGNATURE_INVALID",
      refusedMessage("Impostor"),
      [
        {
          path: "/signatures/0",
          message: `The signature by key "${kid}" (ES256, from ${tampered.url}/jwks.json) does not match the card: the card was changed after it was signed, or signed with another key.`,
        },
      ],
    ]);
    expect((await admin.listAgents(run.run_id)).agents).toEqual([]);
  });

  it("refuses a card signed with another key than its key set holds under the kid", async () => {
    const { admin } = await service();
    const wrong = await signedAgent("Wrong", () => otherSigningKey);
    const run = await admin.createRun(lumenRun());
    const error = await refusal(admin.addAgent(run.run_id, { tag: "w", a2a: { url: wrong.url } }));
    expect([error.code, error.issues?.[0]?.message]).toEqual([
      "AGENT_CARD_SIGNATURE_INVALID",
      `The signature by key "${kid}" (ES256, from ${wrong.url}/jwks.json) does not match the card: the card was changed after it was signed, or signed with another key.`,
    ]);
  });

  it("refuses alg none and a shared-secret HMAC, naming the algorithms it accepts", async () => {
    const { admin } = await service();
    const header = (alg: string) =>
      base64url.encode(JSON.stringify({ alg, typ: "JOSE", kid, jku: "x" }));
    const unsigned = await agent({
      name: "Unsigned",
      skills,
      card: (card) => ({
        ...card,
        signatures: [
          { protected: header("none"), signature: "" },
          { protected: header("HS256"), signature: "c2VjcmV0" },
        ],
      }),
    });
    const run = await admin.createRun(lumenRun());
    const error = await refusal(
      admin.addAgent(run.run_id, { tag: "u", a2a: { url: unsigned.url } }),
    );
    const accepted =
      "ES256, ES384, ES512, PS256, PS384, PS512, RS256, RS384, RS512, EdDSA, Ed25519";
    expect([error.code, error.message, error.issues]).toEqual([
      "AGENT_CARD_SIGNATURE_INVALID",
      refusedMessage("Unsigned"),
      ["none", "HS256"].map((alg, index) => ({
        path: `/signatures/${index}`,
        message: `Its algorithm "${alg}" is not one the service accepts: sign with ${accepted} (never none, nor a shared-secret HMAC).`,
      })),
    ]);
  });

  it("fetches keys only on the card's origin, and says when its key set is not there", async () => {
    const { admin } = await service();
    const run = await admin.createRun(lumenRun());
    const elsewhere = await agent({
      name: "Elsewhere",
      skills,
      signer: signer(
        () => signingKey,
        () => "https://keys.example.com/jwks.json",
      ),
    });
    const offOrigin = await refusal(
      admin.addAgent(run.run_id, { tag: "e", a2a: { url: elsewhere.url } }),
    );
    expect([offOrigin.code, offOrigin.issues?.[0]?.message]).toEqual([
      "AGENT_CARD_SIGNATURE_INVALID",
      `Its jku https://keys.example.com/jwks.json is not on the card's origin ${elsewhere.url}: the service fetches keys only from the origin that served the card. Publish the key set there, or give the key in a2a.jwks.`,
    ]);
    // Signed naming /jwks.json on its own origin, which serves nothing there.
    const keyless = await agent({ name: "Keyless", skills, signer: signer(() => signingKey) });
    const missing = await refusal(
      admin.addAgent(run.run_id, { tag: "k", a2a: { url: keyless.url } }),
    );
    expect([missing.code, missing.issues?.[0]?.message]).toEqual([
      "AGENT_CARD_SIGNATURE_INVALID",
      `The key set at its jku ${keyless.url}/jwks.json answered HTTP 404.`,
    ]);
    // The same card verifies with its key pinned at registration: the jku is not fetched.
    const pinned = await admin.addAgent(run.run_id, {
      tag: "k",
      a2a: { url: keyless.url, jwks: { keys: [publicJwk as { kty: "EC" }] } },
    });
    expect(pinned.a2a?.card_signature).toEqual({
      verified: true,
      kid,
      alg: "ES256",
      key_source: "jwks",
    });
  });

  it("refuses a kid the pinned key set does not hold", async () => {
    const { admin } = await service();
    const signed = await agent({ name: "Signed", skills, signer: signer(() => signingKey) });
    const run = await admin.createRun(lumenRun());
    const error = await refusal(
      admin.addAgent(run.run_id, {
        tag: "s",
        a2a: {
          url: signed.url,
          jwks: { keys: [{ ...publicJwk, kid: "retired" } as { kty: "EC" }] },
        },
      }),
    );
    expect([error.code, error.issues?.[0]?.message]).toEqual([
      "AGENT_CARD_SIGNATURE_INVALID",
      `The signature names key "${kid}" (ES256, from a2a.jwks), which its key set does not hold: sign with a key of the set, or publish the key.`,
    ]);
  });

  it("refuses an unsigned card when the registration requires a signature", async () => {
    const { admin } = await service();
    const plain = await agent({ name: "Plain", skills });
    const run = await admin.createRun(lumenRun());
    const error = await refusal(
      admin.addAgent(run.run_id, { tag: "p", a2a: { url: plain.url, require_signature: true } }),
    );
    expect([error.status, error.code, error.message, error.issues]).toEqual([
      422,
      "AGENT_CARD_SIGNATURE_INVALID",
      'The A2A agent card of "Plain" carries no signature, and the registration requires one (a2a.require_signature). Have the agent sign its card (A2A §8.4), or register it without require_signature.',
      [{ path: "/signatures", message: "The card has no signatures." }],
    ]);
    // Without the requirement it is taken, and said to be unverified.
    const added = await admin.addAgent(run.run_id, { tag: "p", a2a: { url: plain.url } });
    expect(added.a2a?.card_signature).toEqual({ verified: false });
  });

  it("refuses every unsigned card when the service requires signatures, and takes a signed one", async () => {
    const { admin } = await service({ a2aRequireSignatures: true });
    const plain = await agent({ name: "Plain", skills });
    const run = await admin.createRun(lumenRun());
    const error = await refusal(admin.addAgent(run.run_id, { tag: "p", a2a: { url: plain.url } }));
    expect([error.code, error.message]).toEqual([
      "AGENT_CARD_SIGNATURE_INVALID",
      'The A2A agent card of "Plain" carries no signature, and this service requires one of every A2A agent\'s card. Have the agent sign its card (A2A §8.4).',
    ]);
    const signed = await signedAgent("Signed", () => signingKey);
    const added = await admin.addAgent(run.run_id, { tag: "s", a2a: { url: signed.url } });
    expect(added.a2a?.card_signature.verified).toBe(true);
  });

  it("refuses a pinned key set that holds a private key", async () => {
    const { admin } = await service();
    const signed = await agent({ name: "Signed", skills, signer: signer(() => signingKey) });
    const run = await admin.createRun(lumenRun());
    const error = await refusal(
      admin.addAgent(run.run_id, {
        tag: "s",
        a2a: { url: signed.url, jwks: { keys: [{ ...publicJwk, d: "secret" } as { kty: "EC" }] } },
      }),
    );
    expect([error.status, error.code, error.issues]).toEqual([
      400,
      "INVALID_REQUEST",
      [
        {
          path: "/a2a/jwks/keys/0/d",
          message: "a2a.jwks.keys[0].d: a pinned key is a public key: remove its private part d.",
        },
      ],
    ]);
  });
});
