// What the webhook documentation page shows (docs/webhooks.md is the contract): the example body
// and the verification snippets, copied verbatim from the document (webhook-docs.constants.test.ts
// keeps them in step with it).
import { WEBHOOK_USER_AGENT } from "./delivery.constants";

/** The width under which the example body keeps an object or array on one line. */
const JSON_LINE_WIDTH = 80;

/** The example body of docs/webhooks.md § Body. */
export const WEBHOOK_EXAMPLE_PAYLOAD = {
  type: "email.received",
  timestamp: "2026-11-21T10:00:00.000Z",
  data: {
    id: "ep_3kT9…",
    emailCallbackId: "ecb_8Hq2…",
    address: "alice@example.com",
    recipient: "alice@example.com",
    tag: null,
    envelope: { from: "bob@example.org", to: ["alice@example.com"] },
    from: { address: "bob@example.org", name: "Bob" },
    to: [{ address: "alice@example.com", name: "" }],
    cc: [],
    replyTo: [],
    subject: "Hello",
    date: "2026-11-21T09:59:58.000Z",
    messageId: "<CAF…@mail.example.org>",
    inReplyTo: null,
    references: [],
    text: "Hi Alice…",
    html: "<p>Hi Alice…</p>",
    headers: [{ name: "Received", value: "from mail.example.org …" }],
    attachments: [
      {
        filename: "a.pdf",
        contentType: "application/pdf",
        size: 1234,
        contentId: null,
        disposition: "attachment",
        content: "<base64>",
        sha256: "<hex>",
        url: null,
      },
    ],
    raw: {
      size: 3210,
      sha256: "<hex>",
      url: "https://…/api/content/ep_3kT9…/raw?expires=…&signature=…",
      expiresAt: "2026-11-24T10:00:00.000Z",
    },
    authentication: {
      spf: { result: "pass", domain: "example.org" },
      dkim: [{ result: "pass", domain: "example.org", selector: "s1", aligned: true }],
      dmarc: { result: "pass", policy: "reject", domain: "example.org", reason: null },
      arc: { result: "none" },
    },
    spam: { score: 1.2, action: "no action", isSpam: false },
    flags: { isAutoReply: false, isBounce: false, isMailingList: false },
    reply: { text: "Hi Alice…" },
    threadId: "CAF…@mail.example.org",
  },
} as const;

/** The example body as shown: indented JSON whose short objects and arrays stay on one line, as in docs/webhooks.md. */
export const WEBHOOK_EXAMPLE_BODY = formatJson(WEBHOOK_EXAMPLE_PAYLOAD);

/** The request headers of docs/webhooks.md § Request, with an example value each. */
export const WEBHOOK_REQUEST_HEADERS = [
  { name: "Content-Type", example: "application/json", descriptionKey: "contentType" },
  { name: "User-Agent", example: WEBHOOK_USER_AGENT, descriptionKey: "userAgent" },
  { name: "webhook-id", example: "ep_3kT9…", descriptionKey: "id" },
  { name: "webhook-timestamp", example: "1795305600", descriptionKey: "timestamp" },
  { name: "webhook-signature", example: "v1,K5oZfz…", descriptionKey: "signature" },
] as const;

/** What is signed, as docs/webhooks.md § Request writes it. */
export const WEBHOOK_SIGNATURE_FORMULA = '"v1," + base64(HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}"))';

/** The documentation page, and the id of its verification section (named in modules/shared/app-paths.ts). */
export { WEBHOOK_DOCS_PATH, WEBHOOK_DOCS_VERIFY_ANCHOR, WEBHOOK_DOCS_VERIFY_HREF } from "@/modules/shared/app-paths";

/** Where the app serves docs/webhook-payload.schema.json. */
export const WEBHOOK_SCHEMA_PATH = "/api/webhooks/schema";

export type WebhookSnippetLanguage = "node" | "python" | "go";

/** The verification snippets of docs/webhooks.md § Verifying the signature, tab by tab. */
export const WEBHOOK_VERIFICATION_SNIPPETS: readonly {
  language: WebhookSnippetLanguage;
  /** The tab's label. */
  label: string;
  /** The language of the code, shown above it. */
  codeLanguage: string;
  code: string;
}[] = [
  {
    language: "node",
    label: "Node.js",
    codeLanguage: "JavaScript (standardwebhooks)",
    code: `import { Webhook } from "standardwebhooks";

const webhook = new Webhook(process.env.HOOKMAIL_WEBHOOK_SECRET, { format: "raw" });

// body: the raw request body as a string (do not re-serialize parsed JSON)
export function verifyHookmail(body, headers) {
  return webhook.verify(body, {
    "webhook-id": headers["webhook-id"],
    "webhook-timestamp": headers["webhook-timestamp"],
    "webhook-signature": headers["webhook-signature"],
  }); // throws when invalid; returns the parsed payload
}`,
  },
  {
    language: "python",
    label: "Python",
    codeLanguage: "Python",
    code: `import base64, hashlib, hmac, time

def verify_hookmail(secret: str, body: bytes, headers) -> bool:
    msg_id = headers["webhook-id"]
    timestamp = headers["webhook-timestamp"]
    if abs(time.time() - int(timestamp)) > 300:
        return False
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(secret.encode(), signed, hashlib.sha256).digest()).decode()
    return any(
        hmac.compare_digest(expected, part.split(",", 1)[1])
        for part in headers["webhook-signature"].split(" ")
        if part.startswith("v1,")
    )`,
  },
  {
    language: "go",
    label: "Go",
    codeLanguage: "Go",
    code: `func VerifyHookmail(secret string, body []byte, h http.Header) bool {
	id, ts := h.Get("webhook-id"), h.Get("webhook-timestamp")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || math.Abs(float64(time.Now().Unix()-sec)) > 300 {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(id + "." + ts + "."))
	mac.Write(body)
	expected := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, part := range strings.Split(h.Get("webhook-signature"), " ") {
		if sig, ok := strings.CutPrefix(part, "v1,"); ok && hmac.Equal([]byte(sig), []byte(expected)) {
			return true
		}
	}
	return false
}`,
  },
];

/** JSON indented by two spaces, each object or array on one line when it fits in JSON_LINE_WIDTH columns. */
export function formatJson(value: unknown, indent = "", column = 0): string {
  const inline = formatJsonInline(value);
  if (value === null || typeof value !== "object" || column + inline.length + 1 <= JSON_LINE_WIDTH) return inline;
  const innerIndent = `${indent}  `;
  const lines = Array.isArray(value)
    ? value.map((item) => `${innerIndent}${formatJson(item, innerIndent, innerIndent.length)}`)
    : Object.entries(value).map(([key, item]) => {
        const prefix = `${innerIndent}${JSON.stringify(key)}: `;
        return `${prefix}${formatJson(item, innerIndent, prefix.length)}`;
      });
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return `${open}\n${lines.join(",\n")}\n${indent}${close}`;
}

function formatJsonInline(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(formatJsonInline).join(", ")}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return `{ ${entries.map(([key, item]) => `${JSON.stringify(key)}: ${formatJsonInline(item)}`).join(", ")} }`;
}
