import { describe, expect, it } from "vitest";
import { type A2a03Answer, a2a03AnswerProblem } from "./a2a03-answer.ts";
import { a2a03Card, a2a03IssuePath } from "./a2a03-card.ts";

const states =
  '(it acts on submitted, working, input-required, completed, canceled, failed, rejected, auth-required; not on "unknown", a state A2A 0.3 does not name, or a status that is not an object)';

/** A stream event as the SDK's 0.3 transport gives it (only the fields read here). */
const event = (value: object) => value as A2a03Answer;

describe("a2a03AnswerProblem", () => {
  it("reads tasks, messages and stream events the SDK translated in full", () => {
    expect(a2a03AnswerProblem(event({ id: "t", status: { state: 2 }, artifacts: [] }))).toBe(
      undefined,
    );
    expect(a2a03AnswerProblem(event({ messageId: "m", parts: [] }))).toBe(undefined);
    expect(a2a03AnswerProblem(event({ taskId: "t", status: { state: 3 } }))).toBe(undefined);
    expect(a2a03AnswerProblem(event({ taskId: "t", artifact: { parts: [] } }))).toBe(undefined);
  });

  it("names what it cannot act on: no id, no state it knows, an artifact without parts", () => {
    expect(a2a03AnswerProblem(event({ status: { state: 1 } }))).toBe("a task without an id");
    expect(a2a03AnswerProblem(event({ id: "t", status: { state: 0 } }))).toBe(
      `a task ("t") whose status.state the service cannot act on ${states}`,
    );
    expect(a2a03AnswerProblem(event({ taskId: "t", status: { state: 0 } }))).toBe(
      `a status-update event whose status.state the service cannot act on ${states}`,
    );
    expect(a2a03AnswerProblem(event({ taskId: "t", artifact: undefined }))).toBe(
      "an artifact-update event without an artifact's parts",
    );
  });
});

describe("a 0.3 card", () => {
  const card = {
    name: "Old",
    url: "http://old.test/",
    additionalInterfaces: [{ url: "http://old.test/rest", transport: "HTTP+JSON" }],
    capabilities: {},
    skills: [{ id: "draft", name: "Draft" }],
  };

  it("is translated by the SDK: its url first (JSONRPC by default), stamped 0.3", () => {
    const translated = a2a03Card(card) as { card: { supportedInterfaces: unknown[] } };
    expect(translated.card.supportedInterfaces).toEqual([
      { url: "http://old.test/", protocolBinding: "JSONRPC", tenant: "", protocolVersion: "0.3" },
      {
        url: "http://old.test/rest",
        protocolBinding: "HTTP+JSON",
        tenant: "",
        protocolVersion: "0.3",
      },
    ]);
  });

  it("is refused at its own fields: a scheme type 0.3 does not define, an interface issue", () => {
    const odd = a2a03Card({ ...card, securitySchemes: { odd: { type: "kerberos" } } });
    expect(odd.issues).toEqual([
      {
        path: "/securitySchemes",
        message:
          "Unsupported v0.3 security scheme type: kerberos: a 0.3 scheme's type is apiKey, http, oauth2, openIdConnect or mutualTLS.",
      },
    ]);
    expect(a2a03IssuePath("/supportedInterfaces/0/protocolBinding")).toBe("/preferredTransport");
    expect(a2a03IssuePath("/supportedInterfaces/0/protocolVersion")).toBe("/protocolVersion");
    expect(a2a03IssuePath("/supportedInterfaces/2/protocolBinding")).toBe(
      "/additionalInterfaces/1/transport",
    );
    expect(a2a03IssuePath("/skills/0/id")).toBe("/skills/0/id");
  });
});
