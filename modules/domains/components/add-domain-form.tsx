"use client";
// Adding a domain: its name as the user types it; the server writes it as DNS does and answers
// what is wrong with it (docs/domains.md: Names), shown under the field in the user's language.
import { PlusIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { type FormEvent, useId, useState } from "react";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { FormErrorMessage, SubmitButton } from "@/modules/shared/components/form-fields";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import { toUnicodeDomainName } from "@/modules/shared/domain-names";
import { useAddDomainMutation } from "../domains.queries";

export function AddDomainForm() {
  const t = useTranslations("domains.add");
  const toast = useToast();
  const apiErrorMessage = useApiErrorMessage();
  const addMutation = useAddDomainMutation();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    try {
      const { domain } = await addMutation.mutateAsync({ name });
      setName("");
      toast.success(t("success", { name: toUnicodeDomainName(domain.name) }));
    } catch (caught) {
      setError(apiErrorMessage(caught));
    }
  }

  return (
    <Card className="py-4">
      <CardContent className="px-4">
        <form onSubmit={submit} className="flex flex-col gap-2" noValidate>
          <Label htmlFor={inputId}>{t("label")}</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id={inputId}
              value={name}
              onChange={(event) => setName(event.target.value)}
              placeholder={t("placeholder")}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              aria-invalid={error ? true : undefined}
            />
            <SubmitButton isSubmitting={addMutation.isPending} disabled={name.trim() === ""} className="shrink-0">
              {addMutation.isPending ? null : <PlusIcon aria-hidden />}
              {t("submit")}
            </SubmitButton>
          </div>
          <FormErrorMessage message={error} />
        </form>
      </CardContent>
    </Card>
  );
}
