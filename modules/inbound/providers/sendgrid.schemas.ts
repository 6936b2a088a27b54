// The JSON-valued fields of SendGrid's Inbound Parse post
// (https://www.twilio.com/docs/sendgrid/for-developers/parsing-email/setting-up-the-inbound-parse-webhook).
import { z } from "zod";

/** `envelope`: the SMTP envelope, `{"to": ["…"], "from": "…"}`. */
export const sendgridEnvelopeSchema = z.looseObject({
  to: z.union([z.array(z.string()), z.string()]).nullish(),
  from: z.string().nullish(),
});

/** `charsets`: the charset each text field was sent in, `{"subject": "UTF-8", "text": "iso-8859-1", …}`. */
export const sendgridCharsetsSchema = z.record(z.string(), z.string());

/** `attachment-info`: per file field ("attachment1"), its filename, type and Content-ID. */
export const sendgridAttachmentInfoSchema = z.record(
  z.string(),
  z.looseObject({
    filename: z.string().nullish(),
    name: z.string().nullish(),
    type: z.string().nullish(),
    "content-id": z.string().nullish(),
  }),
);

/** `content-ids`: Content-ID → file field ("attachment1"). */
export const sendgridContentIdsSchema = z.record(z.string(), z.string());
