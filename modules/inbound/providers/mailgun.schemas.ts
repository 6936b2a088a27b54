// The JSON-valued fields of Mailgun's route POST (https://documentation.mailgun.com, "Receiving
// messages via HTTP through a forward() action").
import { z } from "zod";

/**
 * `message-headers`: the message's headers as [name, value] pairs, in order. A structured value
 * (Mailgun sends Content-Type as [type, {params}]) is kept as JSON and skipped later.
 */
export const mailgunMessageHeadersSchema = z.array(z.tuple([z.string(), z.unknown()]));

/** `content-id-map`: Content-ID (with its angle brackets) → the attachment's field, "attachment-1". */
export const mailgunContentIdMapSchema = z.record(z.string(), z.string());
