// The composition root (docs/architecture.md: The parts): one object per process, reached by route
// handlers through one accessor; a dispatcher given to it is the one mail is handed to (there is no
// default that drops it).
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "@/modules/config/config";
import { silentLogger } from "@/modules/shared/logging/logger";
import { readProcessServices } from "./process-services";
import { createServices, getServices, setServices } from "./services";

const config = loadConfig({ DATA_DIR: "/tmp/hookmail-services-test" });

afterEach(() => setServices(undefined));

describe("the process's services", () => {
  it("are the ones installed, for every caller of the accessor, until they are taken away", () => {
    const services = createServices({ config, logger: silentLogger, projectDir: process.cwd() });
    setServices(services);
    expect(getServices()).toBe(services);
    expect(readProcessServices()).toBe(services);
    setServices(undefined);
    expect(readProcessServices()).toBeUndefined();
  });

  it("hand deliveries to the dispatcher they were given, and make each part once", async () => {
    const deliverSoon = vi.fn();
    const dispatcher = { deliverSoon, getClaimLeaseMs: () => null, deliverClaimed: vi.fn() };
    const services = createServices({ config, logger: silentLogger, projectDir: process.cwd(), dispatcher });
    (await services.dispatcher()).deliverSoon(["ep_1"]);
    expect(deliverSoon).toHaveBeenCalledWith(["ep_1"]);
    expect(services.metrics()).toBe(services.metrics());
    expect(services.contentLinkKey()).toBe(services.contentLinkKey());
    await services.close();
  });
});
