// The product's SMTP listener on a loopback port, wired to the services' inbound pipeline
// (receive-message.ts) as the smtp role wires it (modules/server/mail-roles.ts), for tests that send
// real mail through it.
import type { Config } from "@/modules/config/config";
import type { Services } from "@/modules/server/services";
import { createSmtpListener } from "@/modules/smtp/smtp-listener";

export type ProductSmtpListener = ReturnType<typeof createSmtpListener>;

export async function startProductSmtpListener(
  services: Pick<Services, "config" | "inbound" | "logger" | "metrics" | "spool">,
  smtp: Partial<Config["smtp"]> = {},
): Promise<ProductSmtpListener> {
  const { config } = services;
  const pipeline = await services.inbound();
  const listener = createSmtpListener({
    config: { ...config, smtp: { ...config.smtp, host: "127.0.0.1", port: 0, ...smtp } },
    checkRecipient: pipeline.checkRecipient,
    receive: pipeline.receive,
    logger: services.logger,
    metrics: services.metrics(),
    spool: services.spool(),
  });
  await listener.listen();
  return listener;
}
