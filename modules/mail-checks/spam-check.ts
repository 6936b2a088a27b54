// rspamd's opinion of a message (docs/webhooks.md: Spam), over its HTTP API: POST /checkv2 with the
// raw message and the envelope in headers (IP, Helo, From, Rcpt). Only when RSPAMD_URL is set. A
// scanner that is down or slow gives no verdict (null) rather than delaying or refusing the mail.

export type SpamVerdict = { score: number; action: string; isSpam: boolean };

/** The longest a scan may take before the mail goes on without a verdict. */
export const SPAM_CHECK_TIMEOUT_MS = 5_000;

/** rspamd's actions that mean "this is spam": everything but letting it through (or greylisting it). */
const SPAM_ACTIONS = new Set(["reject", "add header", "rewrite subject", "soft reject"]);

type CheckV2Answer = { score?: unknown; required_score?: unknown; action?: unknown };

/**
 * The verdict of rspamd's answer, or null when it has none. A scan a prefilter ended early (GTUBE,
 * a rate limit: `is_skipped`) still carries the action decided, which is the verdict.
 */
export function toSpamVerdict(answer: CheckV2Answer): SpamVerdict | null {
  if (typeof answer.score !== "number" || typeof answer.action !== "string") return null;
  const score = Math.round(answer.score * 100) / 100;
  const isOverRequired = typeof answer.required_score === "number" && answer.score >= answer.required_score;
  return { score, action: answer.action, isSpam: SPAM_ACTIONS.has(answer.action) || isOverRequired };
}

export async function checkSpam({
  url,
  raw,
  client,
  sender,
  recipients,
  timeoutMs = SPAM_CHECK_TIMEOUT_MS,
}: {
  /** RSPAMD_URL: the normal worker or the controller, e.g. http://127.0.0.1:11333. */
  url: string;
  /** The message's bytes, or its file (sent as it is read, its length known). */
  raw: Buffer | Blob;
  client: { ip: string; helo: string | null } | null;
  sender: string | null;
  recipients: string[];
  timeoutMs?: number;
}): Promise<SpamVerdict | null> {
  const headers = new Headers({ "Content-Type": "message/rfc822" });
  if (client) headers.set("IP", client.ip);
  if (client?.helo) headers.set("Helo", client.helo);
  if (sender) headers.set("From", sender);
  for (const recipient of recipients) headers.append("Rcpt", recipient);
  try {
    const response = await fetch(new URL("/checkv2", url), {
      method: "POST",
      headers,
      body: raw as unknown as BodyInit,
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return null;
    return toSpamVerdict((await response.json()) as CheckV2Answer);
  } catch {
    return null;
  }
}
