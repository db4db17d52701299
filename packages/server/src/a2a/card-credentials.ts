// What an agent card asks of its callers' credentials, against what the service can send: none
// yet. A2A authentication is a later feature; it will pass the names of the security schemes it
// has credentials for as `available`, and the rule below stays the same.
import type { ValidationIssue } from "@task-context/protocols";

/** The parts of a card that may ask for credentials: the card itself and each of its skills. */
interface SecuredCard {
  securityRequirements?: unknown[] | undefined;
  skills: { id: string; securityRequirements?: unknown[] | undefined }[];
}

/**
 * The security schemes one requirement names: A2A 1.0 JSON writes it
 * `{ "schemes": { "<scheme>": { "list": [scopes] } } }`; the OpenAPI form `{ "<scheme>": [scopes] }`
 * is read too. An empty requirement names none: it is met without credentials.
 */
function schemeNames(requirement: unknown): string[] {
  if (typeof requirement !== "object" || requirement === null) return [];
  const { schemes } = requirement as { schemes?: unknown };
  const named = typeof schemes === "object" && schemes !== null ? schemes : requirement;
  return Object.keys(named);
}

/**
 * The issues of one list of requirements (any one of which suffices, as in OpenAPI): none when it
 * is empty or one of its requirements needs only `available` schemes; else one per requirement.
 */
function unmet(
  requirements: readonly unknown[],
  available: readonly string[],
  pointer: string,
  whose: string,
): ValidationIssue[] {
  const needs = requirements.map(schemeNames);
  if (needs.length === 0 || needs.some((names) => names.every((n) => available.includes(n)))) {
    return [];
  }
  return needs.map((names, index) => ({
    path: `${pointer}/${index}`,
    message: `${whose} asks for credentials of ${names.map((name) => JSON.stringify(name)).join(" and ")}, which the service cannot send: it sends A2A requests without credentials. Register an agent that takes requests without them (no securityRequirements, or an empty one among them).`,
  }));
}

/**
 * Where the card asks for credentials the service does not have (`available`: the names of the
 * security schemes it could answer; none yet): an issue per requirement, at
 * `/securityRequirements/<i>` for the card and `/skills/<j>/securityRequirements/<i>` for a skill.
 */
export function credentialsIssues(
  card: SecuredCard,
  available: readonly string[] = [],
): ValidationIssue[] {
  return [
    ...unmet(card.securityRequirements ?? [], available, "/securityRequirements", "The card"),
    ...card.skills.flatMap((skill, index) =>
      unmet(
        skill.securityRequirements ?? [],
        available,
        `/skills/${index}/securityRequirements`,
        `Skill ${JSON.stringify(skill.id)}`,
      ),
    ),
  ];
}
