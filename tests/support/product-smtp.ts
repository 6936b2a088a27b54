// The product's SMTP listener on a loopback port, wired to the process's pipeline (receiveMessage)
// as the smtp role wires it, for tests that send real mail through it.
import type { Config } from "@/modules/config/config";
import { isAcceptableRecipientAddress, receiveMessage } from "@/modules/inbound/receive-message";
import { silentLogger } from "@/modules/shared/logging/logger";
import { createSmtpListener } from "@/modules/smtp/smtp-listener";

export type ProductSmtpListener = ReturnType<typeof createSmtpListener>;

export async function startProductSmtpListener(
  config: Pick<Config, "smtp" | "inbound">,
  smtp: Partial<Config["smtp"]> = {},
): Promise<ProductSmtpListener> {
  const listener = createSmtpListener({
    config: { ...config, smtp: { ...config.smtp, host: "127.0.0.1", port: 0, ...smtp } },
    isAcceptableRecipient: isAcceptableRecipientAddress,
    receive: receiveMessage,
    logger: silentLogger,
  });
  await listener.listen();
  return listener;
}
