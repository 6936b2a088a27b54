import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { buildDeliveryHeaders, type DeliveryEndpoint, encodeRecipientHeader } from "./endpoint-headers";
import { isReservedHeaderName } from "./reserved-headers";
import { generateSigningKeyPair } from "./signing-keys";
import { buildWebhookHeaders, signWebhook, verifyWebhookSignature } from "./webhook-signature";

const id = "ep_0123456789abcdefghijkl";
const timestamp = Math.floor(Date.now() / 1000);
const secret = "whk-secret-0123456789";
const jsonBody = '{"type":"email.received","data":{"subject":"Grüße"}}';
const rawBody = Buffer.from("From: bob@example.org\r\nSubject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe?=\r\n\r\n\xff\xfe body\r\n", "latin1");
const recipient = "Orders-EU+q3@example.org";

function build(endpoint: Partial<DeliveryEndpoint>, body: string | Uint8Array = jsonBody) {
  const whole: DeliveryEndpoint = { format: "json", signing: { scheme: "none" }, headers: {}, ...endpoint };
  return buildDeliveryHeaders({ endpoint: whole, id, timestamp, body, recipient });
}

describe("buildDeliveryHeaders: json (docs/webhooks.md: Endpoints)", () => {
  it("sends with hmac exactly today's headers of an address with a secret", () => {
    const headers = build({ signing: { scheme: "hmac", secret } });
    expect(headers).toEqual(buildWebhookHeaders({ id, timestamp, body: jsonBody, secret }));
    expect(() => new Webhook(secret, { format: "raw" }).verify(jsonBody, headers)).not.toThrow();
  });

  it("sends with none today's headers of an address without a secret: no signature header", () => {
    const headers = build({ signing: { scheme: "none" } });
    expect(headers).toEqual(buildWebhookHeaders({ id, timestamp, body: jsonBody, secret: null }));
    expect(headers).not.toHaveProperty("webhook-signature");
  });

  it("sends with ed25519 a v1a signature that the endpoint's whpk_ key verifies", () => {
    const { publicKey, privateKey } = generateSigningKeyPair();
    const headers = build({ signing: { scheme: "ed25519", privateKey } });
    expect(headers["webhook-signature"]).toMatch(/^v1a,/);
    const signature = headers["webhook-signature"]!;
    const key = { scheme: "ed25519" as const, publicKey };
    expect(verifyWebhookSignature({ id, timestamp: headers["webhook-timestamp"]!, body: jsonBody, signature, key })).toBe(true);
  });
});

describe("buildDeliveryHeaders: raw", () => {
  it("sends the message's media type, the recipient, the processing id and the three webhook headers", () => {
    expect(build({ format: "raw" }, rawBody)).toEqual({
      "Content-Type": "message/rfc822",
      "User-Agent": "Hookmail-Webhook/1",
      "X-Hookmail-Recipient": recipient,
      "X-Hookmail-Processing-Id": id,
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
    });
  });

  it("signs the raw bytes, with hmac and with ed25519", () => {
    const hmac = build({ format: "raw", signing: { scheme: "hmac", secret } }, rawBody)["webhook-signature"]!;
    expect(hmac).toBe(signWebhook({ id, timestamp, body: rawBody, secret }));
    expect(verifyWebhookSignature({ id, timestamp, body: rawBody, signature: hmac, key: { scheme: "hmac", secret } })).toBe(true);
    const { publicKey, privateKey } = generateSigningKeyPair();
    const signature = build({ format: "raw", signing: { scheme: "ed25519", privateKey } }, rawBody)["webhook-signature"]!;
    const key = { scheme: "ed25519" as const, publicKey };
    expect(verifyWebhookSignature({ id, timestamp, body: rawBody, signature, key })).toBe(true);
    const reread = Buffer.from(rawBody.toString("utf8"), "utf8");
    expect(verifyWebhookSignature({ id, timestamp, body: reread, signature, key })).toBe(false);
  });

  it("percent-encodes what of the recipient is not printable ASCII, so that decodeURIComponent gives it back", () => {
    for (const address of ["jörg@example.org", "a b%c@example.org", "\u0001@example.org", recipient]) {
      const encoded = encodeRecipientHeader(address);
      expect(encoded).toMatch(/^[\x21-\x7e]+$/);
      expect(decodeURIComponent(encoded)).toBe(address);
    }
    expect(encodeRecipientHeader("jörg@example.org")).toBe("j%C3%B6rg@example.org");
  });
});

describe("buildDeliveryHeaders: the endpoint's own headers", () => {
  it("adds them as they were saved", () => {
    const headers = build({ headers: { Authorization: "Bearer abc", "X-Tenant": "acme" } });
    expect(headers).toMatchObject({ Authorization: "Bearer abc", "X-Tenant": "acme", "Content-Type": "application/json" });
  });

  it("never lets them replace or add to the product's headers, in any case", () => {
    const { privateKey } = generateSigningKeyPair();
    const headers = build({
      format: "raw",
      signing: { scheme: "ed25519", privateKey },
      headers: {
        "user-agent": "mine",
        "CONTENT-TYPE": "text/plain",
        "Webhook-Signature": "v1,forged",
        "webhook-id": "other",
        "x-hookmail-recipient": "someone@else.example",
        "X-Hookmail-Extra": "x",
        Host: "evil.example",
        "Content-Length": "1",
        "X-Kept": "yes",
      },
    });
    const lowerNames = Object.keys(headers).map((name) => name.toLowerCase());
    expect(new Set(lowerNames).size).toBe(lowerNames.length);
    expect(headers).toMatchObject({ "User-Agent": "Hookmail-Webhook/1", "Content-Type": "message/rfc822", "webhook-id": id });
    expect(headers["webhook-signature"]).toMatch(/^v1a,/);
    expect(headers["X-Hookmail-Recipient"]).toBe(recipient);
    expect(lowerNames).not.toContain("host");
    expect(lowerNames).not.toContain("content-length");
    expect(lowerNames).not.toContain("x-hookmail-extra");
    expect(headers["X-Kept"]).toBe("yes");
  });

  it("sends a value beyond ASCII as its UTF-8 bytes, which Node writes one per character", () => {
    const headers = build({ headers: { "X-Name": "Jörg €" } });
    expect(Buffer.from(headers["X-Name"]!, "latin1").toString("utf8")).toBe("Jörg €");
  });

  it("takes a header named __proto__ as a header, not as the prototype", () => {
    const saved = JSON.parse('{"__proto__":"x","X-A":"b"}') as Record<string, string>;
    const headers = build({ headers: saved });
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
    expect(Object.hasOwn(headers, "__proto__")).toBe(true);
  });
});

describe("isReservedHeaderName", () => {
  it("reserves the names the product or the transport sets, and every webhook-* and x-hookmail-* name, in any case", () => {
    for (const name of ["host", "Content-Length", "CONTENT-TYPE", "Transfer-Encoding", "connection", "User-Agent", "Expect"]) {
      expect({ name, reserved: isReservedHeaderName(name) }).toEqual({ name, reserved: true });
    }
    for (const name of ["webhook-id", "Webhook-Anything", "X-Hookmail-Recipient", "x-hookmail-whatever"]) {
      expect({ name, reserved: isReservedHeaderName(name) }).toEqual({ name, reserved: true });
    }
  });

  it("leaves the headers a receiver may want", () => {
    for (const name of ["Authorization", "X-Api-Key", "X-Webhook-Id", "Hostname", "Content-Language", "X-Hookmail"]) {
      expect({ name, reserved: isReservedHeaderName(name) }).toEqual({ name, reserved: false });
    }
  });
});
