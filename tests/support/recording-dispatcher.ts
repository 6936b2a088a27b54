// The dispatcher of the test services of route tests (route-test-app.ts): it hands each call to the
// dispatcher a test put in place (`testDispatcher.use`), and, while none is, takes no claims and
// starts nothing, so the processings stay due as no worker runs. recordDispatchedDeliveries puts in
// place, during each test, one that only records the ids it is handed.
import { afterEach, beforeEach } from "vitest";
import type { DeliveryDispatcher } from "@/modules/delivery/delivery-dispatcher";

const idle: DeliveryDispatcher = { deliverSoon: () => undefined, getClaimLeaseMs: () => null, deliverClaimed: () => undefined };

function createSwitchableDispatcher() {
  let target = idle;
  const dispatcher: DeliveryDispatcher = {
    deliverSoon: (ids) => target.deliverSoon(ids),
    getClaimLeaseMs: () => target.getClaimLeaseMs(),
    deliverClaimed: (claims) => target.deliverClaimed(claims),
  };
  return {
    dispatcher,
    /** Hands the calls to `next` (a worker, a recorder); undefined goes back to taking none. */
    use: (next: DeliveryDispatcher | undefined) => {
      target = next ?? idle;
    },
  };
}

/** The dispatcher of this test file's services. */
export const testDispatcher = createSwitchableDispatcher();

/** The ids handed to the dispatcher during the current test, in order. */
export function recordDispatchedDeliveries(): string[] {
  const dispatched: string[] = [];
  beforeEach(() => {
    dispatched.length = 0;
    testDispatcher.use({
      deliverSoon: (ids) => dispatched.push(...ids),
      getClaimLeaseMs: () => null,
      deliverClaimed: () => undefined,
    });
  });
  afterEach(() => testDispatcher.use(undefined));
  return dispatched;
}
