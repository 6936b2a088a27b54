// Senders that behave like a real MTA or provider: a message counts as handed over only when the
// server said so (SMTP 250, HTTP 2xx); a temporary refusal (SMTP 4xx, HTTP 408/429/5xx) or no
// answer at all (connection refused or cut, timeout) is retried after a short back-off, the same
// bytes and Message-ID each time; a permanent refusal (SMTP 5xx, other HTTP 4xx) ends it.
import { createTransport, type Transporter } from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import { postRawInbound } from "./raw-senders";

export type AttemptResult =
  | { kind: "accepted"; answer: string; acceptedCount: number | null }
  | { kind: "rejected"; answer: string }
  | { kind: "retry"; reason: string };

export type SendOutcome = {
  outcome: "accepted" | "rejected" | "gave-up";
  answer: string;
  /** N of "Accepted for N address(es)" / {"accepted": N}: 0 when the server recognised a copy it had stored. */
  acceptedCount: number | null;
  attempts: number;
  retryReasons: string[];
  finishedAt: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tries until accepted or refused for good, backing off 200 ms doubling to 2 s (±25 %), until `deadline`. */
export async function sendLikeAnMta(
  attempt: () => Promise<AttemptResult>,
  { deadline }: { deadline: number },
): Promise<SendOutcome> {
  const retryReasons: string[] = [];
  for (let attempts = 1; ; attempts += 1) {
    const result = await attempt();
    if (result.kind === "accepted") {
      return {
        outcome: "accepted",
        answer: result.answer,
        acceptedCount: result.acceptedCount,
        attempts,
        retryReasons,
        finishedAt: Date.now(),
      };
    }
    if (result.kind === "rejected") {
      return { outcome: "rejected", answer: result.answer, acceptedCount: null, attempts, retryReasons, finishedAt: Date.now() };
    }
    retryReasons.push(result.reason);
    if (Date.now() > deadline) {
      return { outcome: "gave-up", answer: result.reason, acceptedCount: null, attempts, retryReasons, finishedAt: Date.now() };
    }
    const backoff = Math.min(2_000, 200 * 2 ** Math.min(attempts - 1, 4));
    await sleep(backoff * (0.75 + Math.random() * 0.5));
  }
}

/** A pooled SMTP transport to the app, `sessions` connections at most, plain (no STARTTLS), patient timeouts. */
export function createSmtpTransport(port: number, sessions: number): Transporter {
  return createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: sessions,
    maxMessages: Infinity,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}

/** One sendMail over a (pooled) nodemailer SMTP transport, classified. */
export async function attemptSmtp(transport: Transporter, message: Mail.Options): Promise<AttemptResult> {
  try {
    const info = (await transport.sendMail(message)) as { response?: string };
    const answer = String(info.response ?? "");
    const match = /Accepted for (\d+)/.exec(answer);
    return { kind: "accepted", answer, acceptedCount: match ? Number(match[1]) : null };
  } catch (error) {
    const { responseCode, code, message: text } = error as { responseCode?: number; code?: string; message?: string };
    if (typeof responseCode === "number" && responseCode >= 500)
      return { kind: "rejected", answer: `${responseCode} ${text ?? ""}` };
    return {
      kind: "retry",
      reason: typeof responseCode === "number" ? `smtp ${responseCode}` : `smtp ${code ?? text ?? "error"}`,
    };
  }
}

/** One POST /api/inbound/raw, classified. */
export async function attemptRawInbound(request: Parameters<typeof postRawInbound>[0]): Promise<AttemptResult> {
  const outcome = await postRawInbound(request);
  if (outcome.kind === "no-response") return { kind: "retry", reason: `http ${outcome.error.replace(/\s+/g, " ").slice(0, 80)}` };
  const { status, body, json } = outcome;
  if (status >= 200 && status < 300) {
    const accepted = (json as { accepted?: unknown } | null)?.accepted;
    return { kind: "accepted", answer: `${status} ${body}`, acceptedCount: typeof accepted === "number" ? accepted : null };
  }
  if (status === 408 || status === 429 || status >= 500) return { kind: "retry", reason: `http ${status}` };
  return { kind: "rejected", answer: `${status} ${body}` };
}
