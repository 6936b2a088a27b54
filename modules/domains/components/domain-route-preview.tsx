"use client";
// "Where would this address go?": an address typed by the user, routed as its mail would be
// (docs/domains.md), answered with the email that takes it and how (exact, pattern, catch-all), or
// why none does, in words.
import Link from "next/link";
import { useTranslations } from "next-intl";
import { type FormEvent, useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Input } from "@/components/ui/input";
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { emailCallbackPath } from "@/modules/shared/app-paths";
import { FormErrorMessage, SubmitButton } from "@/modules/shared/components/form-fields";
import { TitledCard } from "@/modules/shared/components/titled-card";
import { toUnicodeDomainName } from "@/modules/shared/domain-names";
import { type DomainRouteAnswer, useDomainRouteMutation } from "../domains.queries";

export function DomainRoutePreview() {
  const t = useTranslations("domains.route");
  const apiErrorMessage = useApiErrorMessage();
  const routeMutation = useDomainRouteMutation();
  const [to, setTo] = useState("");
  const [answer, setAnswer] = useState<DomainRouteAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setAnswer(null);
    try {
      setAnswer(await routeMutation.mutateAsync({ to }));
    } catch (caught) {
      setError(apiErrorMessage(caught));
    }
  }

  return (
    <TitledCard title={<h2>{t("title")}</h2>} description={t("description")} contentClassName="flex flex-col gap-3">
      <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row" noValidate>
        <Input
          aria-label={t("label")}
          id={inputId}
          type="email"
          value={to}
          onChange={(event) => setTo(event.target.value)}
          placeholder={t("placeholder")}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
        <SubmitButton isSubmitting={routeMutation.isPending} disabled={to.trim() === ""} className="shrink-0">
          {t("submit")}
        </SubmitButton>
      </form>
      <FormErrorMessage message={error} />
      {answer ? <DomainRouteAnswerText answer={answer} /> : null}
    </TitledCard>
  );
}

function DomainRouteAnswerText({ answer }: { answer: DomainRouteAnswer }) {
  const t = useTranslations("domains.route");
  const { recipient, emailCallback, match, reason } = answer;
  if (emailCallback && match) {
    const matchLabels = { exact: t("match.exact"), pattern: t("match.pattern"), "catch-all": t("match.catchAll") };
    return (
      <output className="bg-muted/50 flex flex-col gap-2 rounded-md border p-3 text-sm">
        <span className="break-words">{t("goesTo", { recipient })}</span>
        <span className="flex flex-wrap items-center gap-2">
          <Link
            href={emailCallbackPath(emailCallback.id, "inbox")}
            title={t("openInbox")}
            className="font-mono break-all underline underline-offset-4"
          >
            {`${emailCallback.username}@${toUnicodeDomainName(emailCallback.domain)}`}
          </Link>
          <Badge variant="outline">{matchLabels[match]}</Badge>
        </span>
        {reason === "disabled" ? <span className="text-muted-foreground">{t("disabled")}</span> : null}
      </output>
    );
  }
  const reasons = {
    "unknown-domain": t("reason.unknownDomain", { recipient }),
    "unverified-domain": t("reason.unverifiedDomain", { recipient }),
    "no-address": t("reason.noAddress", { recipient }),
  };
  const text = reason && reason !== "disabled" ? reasons[reason] : reasons["no-address"];
  return <output className="bg-muted/50 rounded-md border p-3 text-sm break-words">{text}</output>;
}
