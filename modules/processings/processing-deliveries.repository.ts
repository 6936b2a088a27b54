// Prisma access to a mail's deliveries, one per endpoint, as the inbox shows and restarts them
// (docs/webhooks.md: Destinations). No rules here; ownership is part of every query (a delivery is
// looked up within its mail, and its endpoint within the mail's address).
import type { Database } from "@/modules/db/db";
import { Prisma } from "@/modules/db/generated/client";
import { PROCESSING_STATUS, type ProcessingStatus } from "./processings.constants";

/** A time as the timestamp(3) columns hold it (UTC, without a zone). */
export const utc = (date: Date) => Prisma.sql`(${date.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;

/** A delivery starting a new attempt series at `now` (its processing follows, by trigger). */
export const RESTARTED = (now: Date) => Prisma.sql`status = ${PROCESSING_STATUS.PENDING}, error = NULL, "lastStatusCode" = NULL,
  "deliveredAt" = NULL, "attemptCount" = 0, "nextAttemptAt" = ${utc(now)}, "lockedUntil" = NULL, "updatedAt" = ${utc(now)}`;

/** One endpoint's delivery of a mail, as the detail call shows it. */
export type ProcessingDelivery = {
  endpointId: string;
  status: ProcessingStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
};

/** Why an endpoint's delivery of a mail may not restart, as found after a restart changed nothing. */
export type EndpointDeliveryState = { status: string; lockedUntil: Date | null; hasContent: boolean };

/** The content a delivery sends: the message as received for a raw endpoint, the webhook body otherwise. */
const HAS_CONTENT = Prisma.sql`(CASE WHEN e.format = 'raw' THEN p."rawMessage" IS NOT NULL ELSE p.payload IS NOT NULL END)`;

export function createProcessingDeliveriesRepository({ prisma }: Pick<Database, "prisma">) {
  return {
    /** The mail's deliveries in the creation order of their endpoints (deleted endpoints' included). */
    listProcessingDeliveries: async (emailProcessingId: string): Promise<ProcessingDelivery[]> => {
      const rows = await prisma.delivery.findMany({
        where: { emailProcessingId },
        orderBy: [{ endpoint: { createdAt: "asc" } }, { endpointId: "asc" }],
        select: { endpointId: true, status: true, attemptCount: true, nextAttemptAt: true, lastStatusCode: true },
      });
      return rows.map((row) => ({ ...row, status: row.status as ProcessingStatus }));
    },

    /**
     * Starts a new attempt series of the mail's delivery to one live endpoint of `emailCallbackId`,
     * due now, when it has ended or waits for its next attempt (no attempt of it running: its lease
     * `lockedUntil` is not after `now`) and the mail still holds what the endpoint is sent. The
     * conditions are part of the update, so a worker's claim cannot slip in between. Answers the
     * delivery restarted, or null.
     */
    restartEndpointDelivery: async ({
      id,
      endpointId,
      emailCallbackId,
      now,
    }: {
      id: string;
      endpointId: string;
      emailCallbackId: string;
      now: Date;
    }): Promise<string | null> => {
      const rows = await prisma.$queryRaw<{ id: string }[]>`
        UPDATE delivery d SET ${RESTARTED(now)}
        FROM email_processing p, endpoint e
        WHERE d."emailProcessingId" = ${id} AND d."endpointId" = ${endpointId}
          AND p.id = d."emailProcessingId" AND p."emailCallbackId" = ${emailCallbackId}
          AND e.id = d."endpointId" AND e."emailCallbackId" = ${emailCallbackId} AND e."deletedAt" IS NULL
          AND (d.status <> ${PROCESSING_STATUS.PENDING} OR d."lockedUntil" IS NULL OR d."lockedUntil" <= ${utc(now)})
          AND ${HAS_CONTENT}
        RETURNING d.id`;
      return rows[0]?.id ?? null;
    },

    /** The mail's delivery to one live endpoint of `emailCallbackId`, as a refused restart explains itself; null without one. */
    findEndpointDeliveryState: async ({
      id,
      endpointId,
      emailCallbackId,
    }: {
      id: string;
      endpointId: string;
      emailCallbackId: string;
    }): Promise<EndpointDeliveryState | null> => {
      const [row] = await prisma.$queryRaw<EndpointDeliveryState[]>`
        SELECT d.status, d."lockedUntil", ${HAS_CONTENT} AS "hasContent"
        FROM delivery d JOIN email_processing p ON p.id = d."emailProcessingId" JOIN endpoint e ON e.id = d."endpointId"
        WHERE d."emailProcessingId" = ${id} AND d."endpointId" = ${endpointId}
          AND p."emailCallbackId" = ${emailCallbackId} AND e."emailCallbackId" = ${emailCallbackId} AND e."deletedAt" IS NULL`;
      return row ?? null;
    },
  };
}
