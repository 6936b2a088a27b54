"use client";
// "Resend verification email": sends the verification mail again to the address waiting for it
// (remembered by the login and registration forms, else typed here). The server counts these per
// account (docs/security.md); over the limit the form says how long to wait.
import { useTranslations } from "next-intl";
import { useState } from "react";
import { SubmitForm, useZodForm } from "@/modules/shared/components/submit-form";
import { authClient } from "../auth.client";
import { VERIFY_EMAIL_PATH } from "../auth.constants";
import { type ResendVerificationEmailInput, resendVerificationEmailSchema } from "../auth.schemas";
import { EmailFormField } from "./auth-form-fields";
import { usePendingVerificationEmail } from "./pending-verification-email";
import { useAuthErrorMessage } from "./use-auth-error-message";

const TOO_MANY_REQUESTS_STATUS = 429;
const SECONDS_PER_MINUTE = 60;

/** The wait a 429 names: our account limit answers Retry-After, better-auth's own limiter X-Retry-After. */
function readRetryAfterSeconds(response: Response): number | null {
  const value = Number(response.headers.get("Retry-After") ?? response.headers.get("X-Retry-After"));
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** `isAddressShown`: a remembered address is named above the button. */
export function ResendVerificationEmail({ isAddressShown = true }: { isAddressShown?: boolean }) {
  const email = usePendingVerificationEmail();
  // Nothing while rendering on the server: the remembered address is known only in the browser.
  if (email === undefined) return null;
  return <ResendVerificationEmailForm knownEmail={email} isAddressShown={isAddressShown} />;
}

function ResendVerificationEmailForm({ knownEmail, isAddressShown }: { knownEmail: string | null; isAddressShown: boolean }) {
  const t = useTranslations("emailValidationRequired.resend");
  const authErrorMessage = useAuthErrorMessage(t("unknownError"));
  const form = useZodForm(resendVerificationEmailSchema, { email: knownEmail ?? "" });
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function onSubmit({ email }: ResendVerificationEmailInput) {
    setSentTo(null);
    const answer: { retryAfterSeconds: number | null } = { retryAfterSeconds: null };
    const { error } = await authClient.sendVerificationEmail(
      { email, callbackURL: VERIFY_EMAIL_PATH },
      {
        onError: ({ response }) => {
          answer.retryAfterSeconds = readRetryAfterSeconds(response);
        },
      },
    );
    if (!error) {
      setSentTo(email);
      return undefined;
    }
    if (error.status === TOO_MANY_REQUESTS_STATUS && answer.retryAfterSeconds !== null) {
      return t("rateLimited", { minutes: Math.ceil(answer.retryAfterSeconds / SECONDS_PER_MINUTE) });
    }
    return authErrorMessage(error);
  }

  return (
    <div className="flex flex-col gap-3">
      {knownEmail && isAddressShown ? (
        <p className="text-muted-foreground text-sm">{t("sentTo", { email: knownEmail })}</p>
      ) : null}
      <SubmitForm form={form} onSubmit={onSubmit} submitLabel={t("submit")}>
        {knownEmail ? null : <EmailFormField control={form.control} label={t("email")} placeholder={t("emailPlaceholder")} />}
      </SubmitForm>
      {sentTo ? (
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
          {knownEmail ? t("sent", { email: sentTo }) : t("sentIfWaiting", { email: sentTo })}
        </p>
      ) : null}
    </div>
  );
}
