// For tests of calls that hand deliveries to the dispatcher: during each test, a dispatcher that only
// records the ids it is handed (no worker runs), emptied before each test and removed after it.
import { afterEach, beforeEach } from "vitest";
import { setDeliveryDispatcher } from "@/modules/delivery/delivery-dispatcher";

/** The ids handed to the dispatcher during the current test, in order. */
export function recordDispatchedDeliveries(): string[] {
  const dispatched: string[] = [];
  beforeEach(() => {
    dispatched.length = 0;
    setDeliveryDispatcher({
      deliverSoon: (ids) => dispatched.push(...ids),
      getClaimLeaseMs: () => null,
      deliverClaimed: () => undefined,
    });
  });
  afterEach(() => setDeliveryDispatcher(undefined));
  return dispatched;
}
