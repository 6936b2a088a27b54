// The process's delivery dispatcher, shared through globalThis like the database, so route handlers
// (bundled apart from the custom server) reach the worker the server started. Until one is set,
// `deliverSoon` does nothing and no claim is offered: the processings stay due and the next worker
// poll attempts them.

import { processSingleton } from "@/modules/shared/process-singleton";
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

const noDispatcher: DeliveryDispatcher = {
  deliverSoon: () => undefined,
  getClaimLeaseMs: () => null,
  deliverClaimed: () => undefined,
};

const processDispatcher = processSingleton<DeliveryDispatcher>("deliveryDispatcher");

export function getDeliveryDispatcher(): DeliveryDispatcher {
  return processDispatcher.get() ?? noDispatcher;
}

/** Makes a dispatcher (normally the process's delivery worker) the process's; undefined removes it. */
export function setDeliveryDispatcher(dispatcher: DeliveryDispatcher | undefined) {
  processDispatcher.set(dispatcher);
}
