// The deliveries of an accepted mail (docs/webhooks.md: Destinations): one per endpoint of its
// address that takes it, and, when the accepting process takes the first attempts, their claims with
// what each attempt needs, so that no further read is made before posting.
import { LARGE_PAYLOAD_BYTES } from "@/modules/delivery/delivery.constants";
import type { ClaimedDelivery } from "@/modules/delivery/delivery.repository";
import { PROCESSING_ERROR, PROCESSING_STATUS } from "@/modules/processings/processings.constants";
import type { InboundCallback, NewProcessing } from "./inbound.repository";

/** A mail to be delivered that no enabled endpoint of its address takes (by its filter, or none at all) is not processed. */
export function takeByEndpoints(
  decision: Pick<NewProcessing, "status" | "error">,
  endpointIds: string[],
): Pick<NewProcessing, "status" | "error"> {
  if (decision.status !== PROCESSING_STATUS.PENDING || endpointIds.length > 0) return decision;
  return { status: PROCESSING_STATUS.NOT_PROCESSED, error: PROCESSING_ERROR.NO_MATCHING_ENDPOINT };
}

/** The claims of a written mail's deliveries, each with what its attempt needs when its body is small. */
export function toClaims(row: NewProcessing, lockedUntil: Date, callback: InboundCallback): ClaimedDelivery[] {
  const endpoints = new Map(callback.endpoints.map((endpoint) => [endpoint.id, endpoint]));
  return row.deliveries.map(({ id, endpointId }) => {
    const claim = { id, lockedUntil };
    const endpoint = endpoints.get(endpointId)!;
    const body = endpoint.format === "raw" ? row.rawMessage : row.payload;
    // A large body (staged, or over LARGE_PAYLOAD_BYTES) is read back in slices at its attempt.
    if (!(body instanceof Uint8Array) || body.byteLength > LARGE_PAYLOAD_BYTES) return claim;
    const { id: _, filter: __, ...settings } = endpoint;
    return {
      ...claim,
      target: {
        ...settings,
        id,
        processingId: row.id,
        recipient: row.recipient,
        endpointId,
        status: row.status,
        attemptCount: 0,
        body,
        isEnabled: callback.isEnabled,
        isDeleted: false,
      },
    };
  });
}
