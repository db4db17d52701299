import { defineOperation } from "../define-operation.ts";
import { health as healthView } from "../schemas.ts";

/** `GET /healthz`: whether the service answers. */
export const health = defineOperation({
  id: "health",
  method: "GET",
  path: "/healthz",
  audience: "public",
  summary: "Whether the service answers",
  description: "For load balancers and uptime checks: no token, no storage.",
  tag: "public",
  output: { kind: "json", status: 200, body: healthView, description: "It does" },
  client: { method: "health" },
});
