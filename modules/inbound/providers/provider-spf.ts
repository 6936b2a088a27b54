// The SPF verdict a provider reports for a mail it relayed (docs/webhooks.md: Authentication): the
// first word of SendGrid's SPF field, Mailgun's X-Mailgun-Spf or Postmark's Received-SPF header, in
// RFC 8601 words; null when it is missing or not one of them.
import { AUTH_RESULTS, type AuthResult } from "@/modules/mail-checks/mail-auth.models";

export function readProviderSpf(value: string | null | undefined): AuthResult | null {
  const word = value
    ?.trim()
    .split(/[\s(;]/, 1)[0]
    ?.toLowerCase();
  return AUTH_RESULTS.find((result) => result === word) ?? null;
}
