// The one process-wide value (docs/architecture.md: The parts): the process's services (services.ts),
// under one key on globalThis. Next bundles route handlers, server components and the route guard
// (proxy.ts) apart from the custom server, each with its own copy of every module; they all find the
// services `npm start` made here. Nothing else in the code keeps a value for the whole process.
// This file imports nothing at run time, so the route guard can read the configuration without
// bundling the rest of the services.
import type { Services } from "./services.types";

const SERVICES_KEY = Symbol.for("hookmail.services");

const processSlot = globalThis as { [SERVICES_KEY]?: Services };

/** The process's services, if some were made (start.ts, services.ts: getServices, tests). */
export function readProcessServices(): Services | undefined {
  return processSlot[SERVICES_KEY];
}

/** Makes `services` the process's (start.ts; tests that call route handlers); undefined removes them. */
export function setServices(services: Services | undefined) {
  processSlot[SERVICES_KEY] = services;
}
