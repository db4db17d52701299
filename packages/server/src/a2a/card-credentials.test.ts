import { describe, expect, it } from "vitest";
import { credentialsIssues } from "./card-credentials.ts";

const skill = (securityRequirements?: unknown[]) => ({ id: "draft", securityRequirements });

describe("credentialsIssues", () => {
  it("finds none when nothing is required, or one requirement is empty (anonymous allowed)", () => {
    expect(credentialsIssues({ skills: [skill()] })).toEqual([]);
    expect(credentialsIssues({ securityRequirements: [], skills: [skill([])] })).toEqual([]);
    const optional = [{ schemes: { oauth: { list: ["read"] } } }, { schemes: {} }];
    expect(credentialsIssues({ securityRequirements: optional, skills: [] })).toEqual([]);
  });

  it("names each requirement it cannot meet, the card's and a skill's, in either JSON form", () => {
    const issues = credentialsIssues({
      securityRequirements: [{ schemes: { bearer: { list: [] }, key: { list: [] } } }],
      skills: [skill([{ oauth: ["write"] }])],
    });
    expect(issues.map((issue) => [issue.path, issue.message.split(",")[0]])).toEqual([
      ["/securityRequirements/0", 'The card asks for credentials of "bearer" and "key"'],
      ["/skills/0/securityRequirements/0", 'Skill "draft" asks for credentials of "oauth"'],
    ]);
  });

  it("finds a requirement met once the service has credentials of its schemes (room for them)", () => {
    const card = { securityRequirements: [{ schemes: { bearer: { list: [] } } }], skills: [] };
    expect(credentialsIssues(card, ["bearer"])).toEqual([]);
  });
});
