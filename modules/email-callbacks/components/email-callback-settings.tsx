"use client";
// The Settings tab of an email callback: the same form as
// creation without the random username; only what changed is sent, the secret only if changed.
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useAppConfig } from "@/modules/config/components/config-provider";
import { useDomainsQuery } from "@/modules/domains/domains.queries";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import type { ApiEmailCallback } from "../email-callbacks.models";
import { useEmailCallback, useUpdateEmailCallback } from "../email-callbacks.queries";
import type { UpdateEmailCallbackInput } from "../email-callbacks.schemas";
import { getDomainChoices } from "./email-callback-domains";
import { EmailCallbackForm, type EmailCallbackFormSubmission, getEmailCallbackFormValues } from "./email-callback-form";

export function EmailCallbackSettings({ emailCallbackId }: { emailCallbackId: string }) {
  const { data: emailCallback } = useEmailCallback(emailCallbackId);
  if (!emailCallback) return null;
  // The webhook URL and secret are the address's first destination's, which its dialog can change: the
  // form then starts again from them, so that saving it never sends the old ones back.
  const firstDestination = `${emailCallback.webhookUrl}\n${emailCallback.maskedWebhookSecret ?? ""}`;
  return <EmailCallbackSettingsCard key={`${emailCallback.id}\n${firstDestination}`} emailCallback={emailCallback} />;
}

/** The fields that differ from the callback as the server has it. */
export function getEmailCallbackChanges(
  emailCallback: ApiEmailCallback,
  { values, removeWebhookSecret }: EmailCallbackFormSubmission,
): UpdateEmailCallbackInput {
  const changes: UpdateEmailCallbackInput = {};
  if (values.domain !== emailCallback.domain) changes.domain = values.domain;
  if (values.username !== emailCallback.username) changes.username = values.username;
  if (values.webhookUrl !== emailCallback.webhookUrl) changes.webhookUrl = values.webhookUrl;
  if (values.webhookSecret !== "") changes.webhookSecret = values.webhookSecret;
  else if (removeWebhookSecret) changes.webhookSecret = "";
  const allowedOrigins = values.allowedOrigins.map(({ value }) => value);
  if (allowedOrigins.join("\n") !== emailCallback.allowedOrigins.join("\n")) changes.allowedOrigins = allowedOrigins;
  if (values.attachmentDelivery !== emailCallback.attachmentDelivery) changes.attachmentDelivery = values.attachmentDelivery;
  if (values.authenticationPolicy !== emailCallback.authenticationPolicy) {
    changes.authenticationPolicy = values.authenticationPolicy;
  }
  if (values.spamThreshold !== emailCallback.spamThreshold) changes.spamThreshold = values.spamThreshold;
  return changes;
}

function EmailCallbackSettingsCard({ emailCallback }: { emailCallback: ApiEmailCallback }) {
  const t = useTranslations("emailCallbacks.settings");
  const toast = useToast();
  const { availableDomains } = useAppConfig().emailCallbacks;
  const updateEmailCallback = useUpdateEmailCallback();
  // The user's domains come with the page (its page.tsx); the callback keeps its domain even if it is
  // no longer offered.
  const userDomains = useDomainsQuery().data?.domains;
  const domainChoices = useMemo(
    () =>
      getDomainChoices({
        operatorDomains: availableDomains,
        userDomains: userDomains ?? [],
        currentDomain: emailCallback.domain,
      }),
    [availableDomains, userDomains, emailCallback.domain],
  );
  // Taken once: a background refetch must not overwrite what the user is typing.
  const [defaultValues] = useState(() => getEmailCallbackFormValues(emailCallback));

  async function save(submission: EmailCallbackFormSubmission) {
    const changes = getEmailCallbackChanges(emailCallback, submission);
    if (Object.keys(changes).length > 0) {
      await updateEmailCallback.mutateAsync({ emailCallbackId: emailCallback.id, input: changes });
    }
    toast.success(t("success"));
  }

  return (
    // The width and place of the New email form: the two forms are one form.
    <Card className="mx-auto w-full max-w-2xl">
      <CardHeader>
        <CardTitle>{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <EmailCallbackForm
          mode="edit"
          domainChoices={domainChoices}
          defaultValues={defaultValues}
          maskedWebhookSecret={emailCallback.hasWebhookSecret ? emailCallback.maskedWebhookSecret : null}
          onSubmit={save}
        />
      </CardContent>
    </Card>
  );
}
