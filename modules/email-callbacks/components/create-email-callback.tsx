"use client";
import { CircleCheckIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useId, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useAppConfig } from "@/modules/config/components/config-provider";
import { useDomainsQuery } from "@/modules/domains/domains.queries";
import { CopyButton } from "@/modules/shared/components/copy-button";
// The New email page: how many of the plan's addresses are used, the form (which cannot be sent at
// the plan's limit: a notice says so before anything is typed), then the created address (and the
// secret, if one was set), read-only and labelled, with copy buttons and a link back to the emails.
import { PageHeading } from "@/modules/shared/components/page-heading";
import { toUnicodeAddress } from "@/modules/shared/domain-names";
import type { ApiEmailCallback } from "../email-callbacks.models";
import { useCreateEmailCallback, useEmailCallbacks } from "../email-callbacks.queries";
import { CopyAddressButton } from "./copy-address-button";
import { getDomainChoices } from "./email-callback-domains";
import { EmailCallbackForm, type EmailCallbackFormSubmission, getEmptyEmailCallbackFormValues } from "./email-callback-form";
import { EmailCallbackLimitNotice, EmailCallbackUsage, isAtEmailCallbackLimit } from "./email-callback-usage";

export function CreateEmailCallback() {
  const t = useTranslations("emailCallbacks.create");
  const { availableDomains } = useAppConfig().emailCallbacks;
  // The user's domains come with the page (app/(app)/email-callbacks/create/page.tsx).
  const userDomains = useDomainsQuery().data?.domains;
  const domainChoices = useMemo(
    () => getDomainChoices({ operatorDomains: availableDomains, userDomains: userDomains ?? [] }),
    [availableDomains, userDomains],
  );
  const createEmailCallback = useCreateEmailCallback();
  const list = useEmailCallbacks();
  const [created, setCreated] = useState<{ emailCallback: ApiEmailCallback; webhookSecret: string } | null>(null);
  // The server said the limit is reached (an address was created elsewhere meanwhile): the list is
  // read again, and the page says so until then.
  const [hasHitLimit, setHasHitLimit] = useState(false);
  const isAtLimit = list.data ? hasHitLimit || isAtEmailCallbackLimit(list.data) : hasHitLimit;

  async function create({ values }: EmailCallbackFormSubmission) {
    const emailCallback = await createEmailCallback.mutateAsync({
      domain: values.domain,
      username: values.username,
      webhookUrl: values.webhookUrl,
      ...(values.webhookSecret ? { webhookSecret: values.webhookSecret } : {}),
      allowedOrigins: values.allowedOrigins.map(({ value }) => value),
      attachmentDelivery: values.attachmentDelivery,
      authenticationPolicy: values.authenticationPolicy,
      spamThreshold: values.spamThreshold,
    });
    // The secret is known here, this once: the created view shows it to be copied (the API never returns it).
    setCreated({ emailCallback, webhookSecret: values.webhookSecret });
  }

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
      {/* Once created, the card's own "Back to emails" button leads on. */}
      <PageHeading
        back={created ? undefined : { href: "/email-callbacks", label: t("back") }}
        title={t("title")}
        description={created ? undefined : t("description")}
      />
      {created ? (
        <CreatedEmailCallback {...created} />
      ) : (
        <>
          {list.data ? <EmailCallbackUsage list={list.data} /> : null}
          {isAtLimit && list.data ? <EmailCallbackLimitNotice maxEmailCallbacks={list.data.maxEmailCallbacks} /> : null}
          <Card>
            <CardContent>
              <EmailCallbackForm
                mode="create"
                domainChoices={domainChoices}
                defaultValues={getEmptyEmailCallbackFormValues([...domainChoices.operatorDomains, ...domainChoices.ownDomains])}
                isCreateBlocked={isAtLimit}
                onLimitReached={() => {
                  setHasHitLimit(true);
                  void list.refetch();
                }}
                onSubmit={create}
              />
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}

function CreatedEmailCallback({ emailCallback, webhookSecret }: { emailCallback: ApiEmailCallback; webhookSecret: string }) {
  const t = useTranslations("emailCallbacks.create.created");
  const addressId = useId();
  const webhookSecretId = useId();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <CircleCheckIcon aria-hidden className="text-success size-5" />
          {t("title")}
        </CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <div className="flex flex-col gap-2">
          <Label htmlFor={addressId}>{t("address")}</Label>
          <div className="flex items-center gap-2">
            <Input id={addressId} value={toUnicodeAddress(emailCallback.address)} readOnly className="font-mono" />
            <CopyAddressButton address={emailCallback.address} variant="outline" size="icon" />
          </div>
        </div>
        {webhookSecret ? (
          <div className="flex flex-col gap-2">
            <Label htmlFor={webhookSecretId}>{t("webhookSecret")}</Label>
            <div className="flex items-center gap-2">
              <Input
                id={webhookSecretId}
                value={webhookSecret}
                readOnly
                aria-describedby={`${webhookSecretId}-description`}
                className="font-mono"
              />
              <CopyButton value={webhookSecret} label={t("copyWebhookSecret")} variant="outline" size="icon" />
            </div>
            <p id={`${webhookSecretId}-description`} className="text-muted-foreground text-sm">
              {t("webhookSecretDescription")}
            </p>
          </div>
        ) : null}
        <div>
          <Button asChild>
            <Link href="/">{t("backToEmails")}</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
