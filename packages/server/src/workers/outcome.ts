// How a DeliveryError crosses Workers RPC: as data. An error thrown out of a Durable Object's
// method reaches the caller as a plain Error without its class or marker (what survives depends
// on the compatibility date) and is logged as uncaught; a refused lease is no such event. So the
// object's methods return an Outcome and the router's side throws the DeliveryError again.
import type { ValidationIssue } from "@task-context/protocols";
import { DeliveryError, type DeliveryErrorCode } from "../delivery/delivery-error.ts";

/** A DeliveryError as plain data. */
export interface DeliveryErrorData {
  code: DeliveryErrorCode;
  message: string;
  issues?: ValidationIssue[];
}

/** What a method of the run's object answers: its value, or the DeliveryError it refused with. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: DeliveryErrorData };

/** The object's side: runs `operation`; a DeliveryError becomes data, anything else is thrown. */
export async function outcome<T>(operation: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await operation() };
  } catch (error) {
    if (!DeliveryError.isInstance(error)) throw error;
    const { code, message, issues } = error;
    return { ok: false, error: { code, message, ...(issues === undefined ? {} : { issues }) } };
  }
}

/** The caller's side: the value, or the DeliveryError thrown again. */
export async function unwrap<T>(answer: Promise<Outcome<T>>): Promise<T> {
  const settled = await answer;
  if (settled.ok) return settled.value;
  throw new DeliveryError(settled.error);
}
