import { describe, expect, it } from "vitest";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { agentCredentials, REDACTED_CREDENTIAL, redactCredentials } from "./card-credentials.ts";

const skill = (securityRequirements?: unknown[]) => ({ id: "draft", securityRequirements });
const bearer = { httpAuthSecurityScheme: { scheme: "Bearer" } };

function refusal(run: () => unknown): DeliveryError {
  try {
    run();
  } catch (error) {
    if (DeliveryError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a DeliveryError");
}

describe("agentCredentials", () => {
  it("needs none when nothing is required, or one requirement is empty (anonymous allowed)", () => {
    expect(agentCredentials({ name: "A", skills: [skill()] })).toEqual([]);
    expect(agentCredentials({ name: "A", securityRequirements: [], skills: [skill([])] })).toEqual(
      [],
    );
    const optional = [{ schemes: { oauth: { list: ["read"] } } }, { schemes: {} }];
    expect(agentCredentials({ name: "A", securityRequirements: optional, skills: [] })).toEqual([]);
  });

  it("names each requirement unmet, the card's and a skill's, in either JSON form, and the scheme missing", () => {
    const error = refusal(() =>
      agentCredentials(
        {
          name: "A",
          securitySchemes: { bearer, key: { type: "apiKey", in: "header", name: "X-Key" } },
          securityRequirements: [{ schemes: { bearer: { list: [] }, key: { list: [] } } }],
          skills: [skill([{ mtls: [] }])],
        },
        { bearer: { bearer_token: "t0ken-123" } },
      ),
    );
    expect(error.code).toBe("AGENT_CREDENTIALS_MISSING");
    expect(error.issues).toEqual([
      {
        path: "/securityRequirements/0",
        message:
          'The card asks for credentials of "bearer" and "key"; a2a.credentials has none for "key" (an API key in the header "X-Key": give { "api_key": "…" }).',
      },
      {
        path: "/skills/0/securityRequirements/0",
        message:
          'Skill "draft" asks for credentials of "mtls"; a2a.credentials has none for "mtls" (the card declares no security scheme of that name).',
      },
    ]);
  });

  it("turns each credential into how it is sent, the OAuth scopes from the requirements by default", () => {
    const card = {
      name: "A",
      securitySchemes: {
        bearer,
        oauth: {
          oauth2SecurityScheme: {
            flows: { clientCredentials: { tokenUrl: "https://auth.example.com/token" } },
          },
        },
      },
      securityRequirements: [{ schemes: { oauth: { list: ["tasks:write"] } } }, { bearer: [] }],
      skills: [],
    };
    expect(
      agentCredentials(card, { oauth: { client_id: "svc", client_secret: "s3cret-1" } }),
    ).toEqual([
      {
        kind: "oauth2",
        scheme: "oauth",
        token_url: "https://auth.example.com/token",
        client_id: "svc",
        client_secret: "s3cret-1",
        scopes: ["tasks:write"],
      },
    ]);
  });
});

describe("redactCredentials", () => {
  it("replaces each secret, as written and URL-encoded, longest first", () => {
    const text = "GET /a2a?key=a%2Bb%20c&x=1 with a+b c and a+b";
    expect(redactCredentials(text, ["a+b c", "a+b"])).toBe(
      `GET /a2a?key=${REDACTED_CREDENTIAL}&x=1 with ${REDACTED_CREDENTIAL} and ${REDACTED_CREDENTIAL}`,
    );
  });
});
