// A mail's deliveries as its message page lists them: each with the endpoint it went to (numbered
// as the address's endpoints are listed, or null once that endpoint was deleted) and its own
// attempts (docs/webhooks.md: Destinations).
import { DELIVERY_STATUS } from "./processings.constants";
import type { ApiDeliveryAttempt, ApiProcessingDelivery } from "./processings.models";

/** What the page shows of an endpoint: the address's endpoints calls answer more. */
export type DeliveryEndpoint = { id: string; url: string; format: string };

export type DeliveryGroup = {
  delivery: ApiProcessingDelivery;
  /** `number`: its place among the address's endpoints, from 1; null: the endpoint was deleted. */
  endpoint: (DeliveryEndpoint & { number: number }) | null;
  /** Newest first, as the attempts call answers them. */
  attempts: ApiDeliveryAttempt[];
};

/**
 * One group per delivery, in the deliveries' order. An attempt that names no endpoint (made before
 * addresses had several) belongs to the first delivery: it went to the address's webhook, which
 * became its first endpoint; an attempt naming an endpoint with no delivery is left out.
 */
export function groupDeliveries({
  deliveries,
  attempts,
  endpoints,
}: {
  deliveries: ApiProcessingDelivery[];
  attempts: ApiDeliveryAttempt[];
  endpoints: DeliveryEndpoint[];
}): DeliveryGroup[] {
  const firstEndpointId = deliveries[0]?.endpointId;
  return deliveries.map((delivery) => {
    const index = endpoints.findIndex((endpoint) => endpoint.id === delivery.endpointId);
    const endpoint = endpoints[index];
    return {
      delivery,
      endpoint: endpoint ? { id: endpoint.id, url: endpoint.url, format: endpoint.format, number: index + 1 } : null,
      attempts: attempts.filter((attempt) => (attempt.endpointId ?? firstEndpointId) === delivery.endpointId),
    };
  });
}

/** Whether a delivery can be started again now: it ended, or it waits for its next retry. */
export function canRedeliverDelivery(delivery: ApiProcessingDelivery): boolean {
  return delivery.status !== DELIVERY_STATUS.PENDING || delivery.attemptCount > 0;
}
