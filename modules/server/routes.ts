// The route wrappers as app/ uses them: withErrors (modules/shared/api/route-handler.ts), withCaller
// (modules/auth/with-caller.ts) and withBillingEnabled (modules/billing/billing.dependencies.ts),
// each handed the process's services through their one accessor (services.ts: getServices), which
// the handler then receives as `services` (docs/architecture.md: The parts).
import type { Caller } from "@/modules/auth/caller";
import { type WithCallerOptions, withCaller as withCallerOf } from "@/modules/auth/with-caller";
import { withBillingEnabled as withBillingEnabledOf } from "@/modules/billing/billing.dependencies";
import { withErrors as withErrorsOf } from "@/modules/shared/api/route-handler";
import { getServices, type Services } from "./services";

export type { Services };

/** A public route: any thrown error becomes the API's error body. */
export function withErrors<Params = Record<string, never>>(
  handler: (args: { request: Request; params: Params; services: Services }) => Promise<Response>,
) {
  return withErrorsOf<Params, Services>(getServices, handler);
}

/** A route for signed-in callers (modules/auth/with-caller.ts). */
export function withCaller<Params = Record<string, never>>(
  handler: (args: { request: Request; params: Params; caller: Caller; services: Services }) => Promise<Response>,
  options?: WithCallerOptions,
) {
  return withCallerOf<Params, Services>(getServices, handler, options);
}

/** Answers 404 billing.not_configured, before anything else, while billing is off. */
export function withBillingEnabled<Args extends unknown[]>(handler: (...args: Args) => Promise<Response>) {
  return withBillingEnabledOf(getServices, handler);
}
