import type { Hono } from "hono";
import type { Caller } from "./auth.ts";

/** The Hono environment of the app: the authenticated caller of a request. */
export type AppEnv = { Variables: { caller: Caller } };

/** The app as `createApp` builds it. */
export type App = Hono<AppEnv>;
