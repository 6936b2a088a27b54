// What takes the first attempt of mail a process has just accepted (and of a redelivery): the
// process's delivery worker, made by the composition root (docs/architecture.md: The parts) and
// handed to whoever accepts mail. There is no default: a caller without one cannot be written.
import type { ClaimedDelivery } from "./delivery.repository";

export type DeliveryDispatcher = {
  /** Claims and attempts each processing now, in this process; the caller does not wait. */
  deliverSoon: (ids: string[]) => void;
  /**
   * The lease for which new mail may be written already claimed by this dispatcher, or null when it
   * takes no claims now (stopping, or its queue is full: the mail then stays due for any worker).
   */
  getClaimLeaseMs: () => number | null;
  /** Attempts processings claimed for this dispatcher when they were written; the caller does not wait. */
  deliverClaimed: (claims: ClaimedDelivery[]) => void;
};
