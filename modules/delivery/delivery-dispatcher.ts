// The process's delivery dispatcher, shared through globalThis like the database, so route handlers
// (bundled apart from the custom server) reach the worker the server started. Until one is set,
// `deliverSoon` does nothing: the processings stay due and the next worker poll attempts them.
export type DeliveryDispatcher = {
  /** Claims and attempts each processing now, in this process; the caller does not wait. */
  deliverSoon: (ids: string[]) => void;
};

const noDispatcher: DeliveryDispatcher = { deliverSoon: () => undefined };

const globalForDelivery = globalThis as typeof globalThis & { __hookmailDeliveryDispatcher?: DeliveryDispatcher };

export function getDeliveryDispatcher(): DeliveryDispatcher {
  return globalForDelivery.__hookmailDeliveryDispatcher ?? noDispatcher;
}

/** Makes a dispatcher (normally the process's delivery worker) the process's; undefined removes it. */
export function setDeliveryDispatcher(dispatcher: DeliveryDispatcher | undefined) {
  globalForDelivery.__hookmailDeliveryDispatcher = dispatcher;
}
