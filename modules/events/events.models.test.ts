// An email.received message written in parts (a large body sent a slice at a time) is the very text
// of the message written whole (docs/webhooks.md: Live events).
import { describe, expect, it } from "vitest";
import { createWebhookSigner } from "@/modules/delivery/webhook-signature";
import { EVENT_STREAM_EVENTS } from "./events.constants";
import {
  escapeJsonStringPart,
  formatEmailReceivedEvent,
  formatEmailReceivedFrame,
  formatEmailReceivedHeaders,
  formatServerSentEvent,
  toWebhookTimestamp,
} from "./events.models";

describe("an email.received message written in parts", () => {
  it("is byte for byte the message written whole, signed alike, however the body's bytes are cut", () => {
    const body = JSON.stringify({
      type: "email.received",
      data: { subject: 'Quotes " and \\ and\nlines', text: "héllo 😀 \u0001 wörld" },
    });
    const bytes = Buffer.from(body, "utf8");
    const now = new Date("2026-11-27T12:00:00Z");
    const whole = formatServerSentEvent({
      event: EVENT_STREAM_EVENTS.EMAIL_RECEIVED,
      data: formatEmailReceivedEvent({ emailProcessingId: "ep_1", body, secret: "a-secret", now }),
    });
    for (const sliceBytes of [1, 3, 7, 64]) {
      const timestamp = toWebhookTimestamp(now);
      const signer = createWebhookSigner({ id: "ep_1", timestamp, secret: "a-secret" });
      const decoder = new TextDecoder();
      let escaped = "";
      for (let offset = 0; offset < bytes.byteLength; offset += sliceBytes) {
        const slice = bytes.subarray(offset, offset + sliceBytes);
        signer.update(slice);
        escaped += escapeJsonStringPart(decoder.decode(slice, { stream: true }));
      }
      escaped += escapeJsonStringPart(decoder.decode());
      const headers = formatEmailReceivedHeaders({ emailProcessingId: "ep_1", timestamp, signature: signer.sign() });
      const { head, tail } = formatEmailReceivedFrame(headers);
      expect(`${head}${escaped}${tail}`).toBe(whole);
    }
  });
});
