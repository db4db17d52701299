import * as client from "@task-context/client";
import { describe, expect, it } from "vitest";
import * as deprecated from "./client.ts";

describe("@task-context/server/client, deprecated", () => {
  it("re-exports the values of @task-context/client, the very same", () => {
    expect(deprecated.createServiceClient).toBe(client.createServiceClient);
    expect(deprecated.ServiceError).toBe(client.ServiceError);
    expect(Object.keys(deprecated).sort()).toEqual(["ServiceError", "createServiceClient"]);
  });
});
