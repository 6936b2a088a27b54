// The process's services for a test (modules/server/services.ts): its configuration and database,
// a logger that writes nothing, and whatever else it gives (an auth with a mailer of its own, a
// recording dispatcher, a parser); installed as the process's while route handlers are called.
import { createServices, type Services, type ServicesOptions, setServices } from "@/modules/server/services";
import { silentLogger } from "@/modules/shared/logging/logger";

export function createTestServices(options: Omit<ServicesOptions, "logger" | "projectDir"> & Partial<ServicesOptions>): Services {
  return createServices({ logger: silentLogger, projectDir: process.cwd(), ...options });
}

/** Makes test services the process's, for code that reaches them as route handlers do (getServices). */
export function installTestServices(options: Parameters<typeof createTestServices>[0]): Services {
  const services = createTestServices(options);
  setServices(services);
  return services;
}
