// The row of one accepted mail for one address, as the inbound repository writes it (alone, in a
// group, or with the other addresses of its message).
import type { StagedValue } from "@/modules/db/value-uploads";

export type NewProcessing = {
  id: string;
  emailCallbackId: string;
  fromAddress: string;
  subject: string;
  messageId: string | null;
  recipient: string;
  tag: string | null;
  status: string;
  error: string | null;
  /** The message, or where it was staged from its spooled file (a large one). */
  rawMessage: Uint8Array | StagedValue | null;
  /** The webhook body, or where the parsing thread staged it (a large one). */
  payload: Uint8Array | StagedValue | null;
  nextAttemptAt: Date | null;
  /** One per endpoint that takes the mail (pending mail only). */
  deliveries: { id: string; endpointId: string }[];
  /** Set when the accepting process claims the first attempts for itself (the claims' lease). */
  lockedUntil: Date | null;
  createdAt: Date;
};
