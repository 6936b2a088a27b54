// Postmark's inbound webhook JSON (https://postmarkapp.com/developer/webhooks/inbound-webhook):
// only the fields Hookmail reads; the others are ignored.
import { z } from "zod";

const optionalText = z.string().nullish();

const postmarkAddressSchema = z.looseObject({ Email: z.string(), Name: optionalText });

export const postmarkInboundSchema = z.looseObject({
  From: optionalText,
  FromFull: postmarkAddressSchema.nullish(),
  To: optionalText,
  ToFull: z.array(postmarkAddressSchema).nullish(),
  Cc: optionalText,
  CcFull: z.array(postmarkAddressSchema).nullish(),
  OriginalRecipient: optionalText,
  ReplyTo: optionalText,
  Subject: optionalText,
  MessageID: optionalText,
  Date: optionalText,
  TextBody: optionalText,
  HtmlBody: optionalText,
  Headers: z.array(z.looseObject({ Name: z.string(), Value: z.string().nullish() })).nullish(),
  Attachments: z
    .array(
      z.looseObject({
        Name: optionalText,
        Content: z.base64(),
        ContentType: optionalText,
        ContentID: optionalText,
      }),
    )
    .nullish(),
  /** The whole message, when the server's "Include raw email content in JSON payload" is on. */
  RawEmail: optionalText,
});

export type PostmarkInbound = z.infer<typeof postmarkInboundSchema>;
