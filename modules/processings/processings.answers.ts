// What the API answers to the reads of an inbox (GET …/processings), of one mail (GET
// …/processings/{id}) and of its attempts (GET …/attempts): the route handlers send it, and a page's first render on the server starts
// from the very same value (docs/architecture.md: The first render).
import { getEmailProcessingDetail } from "./processing-content.usecases";
import { getProcessingsRepository } from "./processings.dependencies";
import {
  type ApiDeliveryAttempt,
  type ApiProcessingsPage,
  formatDeliveryAttemptForApi,
  formatProcessingDeliveryForApi,
  formatProcessingDetailForApi,
  formatProcessingForApi,
} from "./processings.models";
import type { EmailProcessingDetailAnswer } from "./processings.queries";
import type { InboxPageRequest } from "./processings.query-keys";
import { listDeliveryAttempts, listEmailProcessings } from "./processings.usecases";

type ReadServices = Parameters<typeof getProcessingsRepository>[0];

/** One page of the owner's address's inbox, filtered or not; not found (404) for anyone else's address. */
export async function answerProcessingsPage({
  emailCallbackId,
  userId,
  page: { pageIndex, pageSize, status, q },
  services,
}: {
  emailCallbackId: string;
  userId: string;
  page: InboxPageRequest;
  services: ReadServices;
}): Promise<ApiProcessingsPage> {
  const page = await listEmailProcessings({
    emailCallbackId,
    userId,
    pageIndex,
    pageSize,
    filter: { status, q },
    repository: await getProcessingsRepository(services),
  });
  return { ...page, emailProcessings: page.emailProcessings.map(formatProcessingForApi) };
}

/** One mail of the owner's address with its webhook body (shortened for the message page, or whole). */
export async function answerProcessingDetail({
  emailCallbackId,
  processingId,
  userId,
  isShortened,
  services,
}: {
  emailCallbackId: string;
  processingId: string;
  userId: string;
  isShortened: boolean;
  services: ReadServices;
}): Promise<EmailProcessingDetailAnswer> {
  const { emailProcessing, deliveries, ...body } = await getEmailProcessingDetail({
    emailCallbackId,
    processingId,
    userId,
    repository: await getProcessingsRepository(services),
    isShortened,
  });
  return {
    emailProcessing: formatProcessingDetailForApi(emailProcessing),
    deliveries: deliveries.map(formatProcessingDeliveryForApi),
    ...body,
  };
}

/** Every delivery attempt of one mail of the owner's address, newest first. */
export async function answerDeliveryAttempts({
  emailCallbackId,
  processingId,
  userId,
  services,
}: {
  emailCallbackId: string;
  processingId: string;
  userId: string;
  services: ReadServices;
}): Promise<{ deliveryAttempts: ApiDeliveryAttempt[] }> {
  const { deliveryAttempts } = await listDeliveryAttempts({
    emailCallbackId,
    processingId,
    userId,
    repository: await getProcessingsRepository(services),
  });
  return { deliveryAttempts: deliveryAttempts.map(formatDeliveryAttemptForApi) };
}
