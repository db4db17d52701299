import { base64url, exportJWK, FlattenedSign, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { canonicalCard, verifyCardSignatures } from "./card-signature.ts";

/** An A2A 0.3 card as a 0.3 agent serves it, keys out of order, with empty values. */
const legacyCard = {
  url: "https://illustrator.example.com/",
  name: "Illustrator",
  protocolVersion: "0.3.0",
  description: "",
  skills: [{ tags: [], name: "Illustration", id: "illustration" }],
  capabilities: { streaming: true, extensions: [] },
  defaultInputModes: ["text/plain"],
};

/** The same card in its canonical form: sorted keys, empty values and signatures left out. */
const legacyCanonical =
  '{"capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"name":"Illustrator","protocolVersion":"0.3.0","skills":[{"id":"illustration","name":"Illustration"}],"url":"https://illustrator.example.com/"}';

describe("a card's canonical form and signatures", () => {
  it("canonicalizes a 0.3 card as it came: RFC 8785 order, empty values and signatures left out", () => {
    const signed = { ...legacyCard, signatures: [{ protected: "e30", signature: "" }] };
    expect(canonicalCard(signed, true)).toBe(legacyCanonical);
  });

  it("verifies a 0.3 card signed over that form, and refuses it once changed", async () => {
    const { privateKey, publicKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
    const key = { ...(await exportJWK(publicKey)), kid: "legacy-key" };
    const jws = await new FlattenedSign(new TextEncoder().encode(legacyCanonical))
      .setProtectedHeader({ alg: "EdDSA", typ: "JOSE", kid: "legacy-key" })
      .sign(privateKey);
    const signature = { protected: jws.protected, signature: jws.signature };
    const signing = {
      cardUrl: "https://illustrator.example.com/.well-known/agent-card.json",
      name: "Illustrator",
      jwks: { keys: [key as { kty: "OKP" }] },
      legacy: true,
      fetcher: () => Promise.reject(new Error("no key set is fetched with a pinned one")),
    };
    expect(await verifyCardSignatures({ ...legacyCard, signatures: [signature] }, signing)).toEqual(
      { verified: true, kid: "legacy-key", alg: "EdDSA", key_source: "jwks" },
    );
    const changed = {
      ...legacyCard,
      url: "https://elsewhere.example.com/",
      signatures: [signature],
    };
    await expect(verifyCardSignatures(changed, signing)).rejects.toMatchObject({
      code: "AGENT_CARD_SIGNATURE_INVALID",
      issues: [
        {
          path: "/signatures/0",
          message:
            'The signature by key "legacy-key" (EdDSA, from a2a.jwks) does not match the card: the card was changed after it was signed, or signed with another key.',
        },
      ],
    });
  });

  it("says what is wrong with signatures that are not JWS objects, and a header without kid", async () => {
    const signing = {
      cardUrl: "https://a.example.com/.well-known/agent-card.json",
      name: "A",
      legacy: true,
      fetcher: fetch,
    };
    await expect(
      verifyCardSignatures({ name: "A", signatures: "signed" }, signing),
    ).rejects.toMatchObject({
      issues: [
        {
          path: "/signatures",
          message:
            "signatures must be a list of { protected, signature, header? }, protected and signature base64url strings.",
        },
      ],
    });
    const noKid = base64url.encode(JSON.stringify({ alg: "ES256", typ: "JOSE" }));
    await expect(
      verifyCardSignatures(
        { name: "A", signatures: [{ protected: noKid, signature: "" }] },
        signing,
      ),
    ).rejects.toMatchObject({
      issues: [
        {
          path: "/signatures/0",
          message: "Its protected header has no kid: name the signing key.",
        },
      ],
    });
  });
});
