// Hookmail — Cloudflare Email Worker
//
// Forwards every mail that Cloudflare Email Routing hands to this Worker to Hookmail's raw ingest
// route, POST {HOOKMAIL_URL}/api/inbound/raw, byte for byte, with its SMTP envelope.
//
// Setup
//   1. Create a Worker (Workers & Pages → Create → "Hello World"), replace its code with this file
//      and deploy it. Plain JavaScript, no dependencies, no build step.
//   2. In the Worker's Settings → Variables and secrets, add:
//        HOOKMAIL_URL             the public URL of your Hookmail, e.g. https://hookmail.example.com
//                                 (no trailing path)
//        HOOKMAIL_INBOUND_SECRET  (type "Secret") the value of INBOUND_SECRET on the Hookmail side
//   3. In your zone's Email → Email Routing: enable Email Routing (it adds the MX and SPF records),
//      then under Routing rules set the catch-all address (or one custom address per user) to the
//      action "Send to a Worker" with this Worker. The zone's domain must be listed in Hookmail's
//      EMAIL_DOMAINS for the mail to reach anyone.
//
// Answers
//   2xx             accepted (Hookmail answers {"accepted": N}; N = 0 when no address matched)
//   4xx (not below) the message is refused for good: setReject() makes Cloudflare answer the
//                   sending server with a permanent SMTP error, so the sender gets a bounce
//   401, 403, 404   the Worker itself is misconfigured (secret or URL): the mail is not bounced
//                   but deferred like a 5xx, so nothing is lost while the setting is fixed
//   408, 429, 5xx,  the Worker throws: Cloudflare answers the sending server with a temporary
//   network error   error and the sending server retries later
//
// Hookmail refuses a message over its MAX_MESSAGE_BYTES with 413 (bounced here). Cloudflare Email
// Routing itself accepts messages up to 25 MiB.

const REQUEST_TIMEOUT_MS = 60_000;

/** Answers that mean this Worker's configuration is wrong, not the message: retry, don't bounce. */
const CONFIGURATION_STATUSES = new Set([401, 403, 404]);

/** 4xx answers that are worth trying again later. */
const RETRYABLE_CLIENT_STATUSES = new Set([408, 429]);

export default {
  async email(message, env) {
    const baseUrl = String(env.HOOKMAIL_URL ?? "").replace(/\/+$/, "");
    if (!baseUrl || !env.HOOKMAIL_INBOUND_SECRET) {
      throw new Error("Set HOOKMAIL_URL and HOOKMAIL_INBOUND_SECRET in the Worker's settings.");
    }
    // Read whole: a buffered body has a Content-Length and can be sent again by the runtime.
    const raw = await new Response(message.raw).arrayBuffer();
    let response;
    try {
      response = await fetch(`${baseUrl}/api/inbound/raw`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${env.HOOKMAIL_INBOUND_SECRET}`,
          "Content-Type": "message/rfc822",
          "X-Envelope-From": toHeaderValue(message.from),
          "X-Envelope-To": toHeaderValue(message.to),
        },
        body: raw,
        redirect: "manual",
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(`Hookmail could not be reached: ${describeError(error)}`);
    }
    if (response.ok) return;
    const detail = await readErrorMessage(response);
    const status = response.status;
    const isPermanent = status >= 400 && status < 500 && !RETRYABLE_CLIENT_STATUSES.has(status);
    if (isPermanent && !CONFIGURATION_STATUSES.has(status)) {
      message.setReject(`Rejected by Hookmail (${status})${detail ? `: ${detail}` : ""}`);
      return;
    }
    throw new Error(`Hookmail answered ${status}${detail ? `: ${detail}` : ""}; the sender will retry.`);
  },
};

/**
 * Header values are bytes: an internationalised (SMTPUTF8) address is sent as its UTF-8 bytes,
 * which Hookmail reads back as UTF-8.
 */
function toHeaderValue(value) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is "every ASCII character"; what is outside it is re-encoded
  return String(value ?? "").replace(/[^\u0000-\u007f]+/g, (text) =>
    Array.from(new TextEncoder().encode(text), (byte) => String.fromCharCode(byte)).join(""),
  );
}

/** Hookmail's `{"error": {"message"}}`, or the start of whatever came back. */
async function readErrorMessage(response) {
  const text = await response.text().catch(() => "");
  try {
    const message = JSON.parse(text)?.error?.message;
    if (typeof message === "string") return message.slice(0, 200);
  } catch {
    // not JSON: fall through
  }
  return text.replace(/\s+/g, " ").trim().slice(0, 200);
}

function describeError(error) {
  return error instanceof Error ? error.message : String(error);
}
