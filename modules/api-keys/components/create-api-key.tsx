"use client";
// Creating an API key: the name form, then, once created, the token
// shown this one time with a copy button.
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { FormFieldItem } from "@/modules/shared/components/form-fields";
import { SubmitForm, useZodForm } from "@/modules/shared/components/submit-form";
import { TitledCard } from "@/modules/shared/components/titled-card";
import { useCreateApiKeyMutation } from "../api-keys.queries";
import { type CreateApiKeyInput, createApiKeySchema } from "../api-keys.schemas";
import { ApiKeysPageHeader } from "./api-keys-page-header";
import { CopyApiKeyButton } from "./copy-api-key-button";

export function CreateApiKey() {
  const t = useTranslations("apiKeys");
  const [createdToken, setCreatedToken] = useState<string | null>(null);
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
      <ApiKeysPageHeader backHref="/api-keys" backLabel={t("back")} title={t("create.title")} />
      {createdToken === null ? <CreateApiKeyForm onCreated={setCreatedToken} /> : <ApiKeyCreatedCard token={createdToken} />}
    </div>
  );
}

function CreateApiKeyForm({ onCreated }: { onCreated: (token: string) => void }) {
  const t = useTranslations("apiKeys.create");
  const apiErrorMessage = useApiErrorMessage();
  const createMutation = useCreateApiKeyMutation();
  const form = useZodForm(createApiKeySchema, { name: "" }, "onChange");
  // Judged as typed, before any submit: a blank or too long name cannot be sent.
  const isNameValid = createApiKeySchema.safeParse({ name: form.watch("name") }).success;

  async function onSubmit({ name }: CreateApiKeyInput) {
    try {
      const { token } = await createMutation.mutateAsync({ name });
      onCreated(token);
    } catch (error) {
      return apiErrorMessage(error);
    }
  }

  return (
    <Card>
      <CardContent>
        <SubmitForm
          form={form}
          onSubmit={onSubmit}
          submitLabel={t("submit")}
          isSubmitDisabled={!isNameValid}
          isSubmitFullWidth={false}
        >
          <FormFieldItem control={form.control} name="name" label={t("name.label")} description={t("name.description")}>
            {(field) => <Input autoComplete="off" placeholder={t("name.placeholder")} {...field} />}
          </FormFieldItem>
        </SubmitForm>
      </CardContent>
    </Card>
  );
}

function ApiKeyCreatedCard({ token }: { token: string }) {
  const t = useTranslations("apiKeys.create.success");
  return (
    <TitledCard title={t("title")} description={t("description")} contentClassName="flex flex-col gap-4">
      <div className="flex gap-2">
        <Input
          aria-label={t("tokenLabel")}
          value={token}
          readOnly
          className="font-mono"
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyApiKeyButton token={token} />
      </div>
      <div>
        <Button variant="outline" asChild>
          <Link href="/api-keys">{t("done")}</Link>
        </Button>
      </div>
    </TitledCard>
  );
}
