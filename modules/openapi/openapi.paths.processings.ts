// The calls on an address's inbox: its pages, one mail in full, the message as received, an
// attachment, the delivery attempts and a redelivery.
import { z } from "zod";
import {
  listProcessingsQuerySchema,
  processingDetailQuerySchema,
  redeliverProcessingBodySchema,
} from "@/modules/processings/processings.schemas";
import { OPENAPI_TAG } from "./openapi.constants";
import type { HeaderSpec, OperationSpec } from "./openapi.operations";
import {
  deliveryAttemptResponseSchema,
  emailProcessingResponseSchema,
  processingDetailResponseSchema,
  processingsPageResponseSchema,
} from "./openapi.responses";

const LIST_PATH = "/api/email-callbacks/{emailCallbackId}/processings";
const ITEM_PATH = `${LIST_PATH}/{processingId}`;
const tag = OPENAPI_TAG.PROCESSINGS;
const ROW_NOT_FOUND = ["email_callback.not_found", "email_processing.not_found"] as const;

const DOWNLOAD_HEADERS: HeaderSpec[] = [
  { name: "Content-Disposition", description: "`attachment`, with the file name." },
  { name: "Content-Length", description: "The size in bytes." },
];

export const PROCESSING_OPERATIONS: OperationSpec[] = [
  {
    method: "get",
    path: LIST_PATH,
    tag,
    operationId: "listEmailProcessings",
    summary: "List the inbox",
    description: "One page of the mail the address received, newest first; a page past the end is empty.",
    access: "session-or-key",
    query: listProcessingsQuerySchema,
    queryDescriptions: {
      pageIndex: "The page, from 0.",
      pageSize: "Rows per page.",
      status: "Only the mail with this status.",
      q: "A text found in the sender or the subject (case-insensitive).",
    },
    success: { status: 200, description: "The page.", content: { "application/json": processingsPageResponseSchema } },
    errors: ["email_callback.not_found"],
  },
  {
    method: "get",
    path: ITEM_PATH,
    tag,
    operationId: "getEmailProcessing",
    summary: "Read one received mail",
    description: "The inbox row with its delivery state, and the exact JSON body sent to the webhook.",
    access: "session-or-key",
    query: processingDetailQuerySchema,
    queryDescriptions: {
      webhookBody:
        "`exact` (the default): the body as sent. `shortened`: a body over 1 MiB comes without its attachments' content, " +
        "as the message page shows it.",
    },
    success: { status: 200, description: "The mail.", content: { "application/json": processingDetailResponseSchema } },
    errors: [...ROW_NOT_FOUND],
  },
  {
    method: "get",
    path: `${ITEM_PATH}/webhook-body`,
    tag,
    operationId: "getWebhookBody",
    summary: "Download the webhook body",
    description:
      "The JSON body sent to the webhook, byte for byte (a .json file), while the content is kept. " +
      "A download counts until it has been sent; past a few at once per caller the answer is 503 with Retry-After.",
    access: "session-or-key",
    success: {
      status: 200,
      description: "The body.",
      headers: DOWNLOAD_HEADERS,
      content: { "application/json": { kind: "binary", description: "The body's bytes, as sent." } },
    },
    errors: [...ROW_NOT_FOUND, "email_processing.message_gone", "service.unavailable"],
  },
  {
    method: "get",
    path: `${ITEM_PATH}/raw`,
    tag,
    operationId: "getRawMessage",
    summary: "Download the message as received",
    description:
      "The message exactly as received (an .eml file), while its content is kept. " +
      "A download counts until it has been sent; past a few at once per caller the answer is 503 with Retry-After.",
    access: "session-or-key",
    success: {
      status: 200,
      description: "The message.",
      headers: DOWNLOAD_HEADERS,
      content: { "message/rfc822": { kind: "binary" } },
    },
    errors: [...ROW_NOT_FOUND, "email_processing.message_gone", "service.unavailable"],
  },
  {
    method: "get",
    path: `${ITEM_PATH}/attachments/{index}`,
    tag,
    operationId: "getAttachment",
    summary: "Download an attachment",
    description:
      "One attachment's bytes, by its place in the webhook body's list, with its own content type. " +
      "A download counts until it has been sent; past a few at once per caller, or past what the process may " +
      "hold at once, the answer is 503 with Retry-After.",
    access: "session-or-key",
    success: {
      status: 200,
      description: "The attachment.",
      headers: DOWNLOAD_HEADERS,
      content: { "*/*": { kind: "binary", description: "The bytes, with the attachment's own content type." } },
    },
    errors: [...ROW_NOT_FOUND, "email_processing.message_gone", "service.unavailable"],
  },
  {
    method: "get",
    path: `${ITEM_PATH}/attempts`,
    tag,
    operationId: "listDeliveryAttempts",
    summary: "List the delivery attempts",
    description: "Every webhook call made for the mail, newest first, earlier attempt series included.",
    access: "session-or-key",
    success: {
      status: 200,
      description: "The attempts.",
      content: { "application/json": z.object({ deliveryAttempts: z.array(deliveryAttemptResponseSchema) }) },
    },
    errors: [...ROW_NOT_FOUND],
  },
  {
    method: "post",
    path: `${ITEM_PATH}/redeliver`,
    tag,
    operationId: "redeliverEmailProcessing",
    summary: "Redeliver one mail",
    description:
      "A new attempt series on the stored content (status `pending`, due now); earlier attempts are kept. Without " +
      "`endpointId` (or without a body): every endpoint whose delivery ended in error, or every one when none did; a " +
      "pending mail answers `email_processing.delivery_in_progress`. With `endpointId`: that endpoint's delivery, when it " +
      "has ended or waits for its next retry; `email_processing.delivery_in_progress` only while an attempt of it is " +
      "running; `endpoint.not_found` for an endpoint with no delivery of this mail. Rate limited per address.",
    access: "session-or-key",
    requestBody: { required: false, content: { "application/json": redeliverProcessingBodySchema } },
    success: {
      status: 202,
      description: "The mail, pending again.",
      content: { "application/json": z.object({ emailProcessing: emailProcessingResponseSchema }) },
    },
    errors: [
      ...ROW_NOT_FOUND,
      "endpoint.not_found",
      "request.rate_limited",
      "email_processing.delivery_in_progress",
      "email_processing.message_gone",
    ],
  },
];
