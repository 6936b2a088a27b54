"use client";
// Creating an API key: the name form, then, once created, the token
// shown this one time with a copy button.
import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { FormErrorMessage, SubmitButton } from "@/modules/shared/components/form-fields";
import { TranslatedFormMessage } from "@/modules/shared/components/translated-form-message";
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
  const [formError, setFormError] = useState<string | null>(null);
  const createMutation = useCreateApiKeyMutation();
  const form = useForm<CreateApiKeyInput>({
    resolver: zodResolver(createApiKeySchema),
    defaultValues: { name: "" },
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  const isInvalid = Object.keys(errors).length > 0;

  async function onSubmit({ name }: CreateApiKeyInput) {
    setFormError(null);
    try {
      const { token } = await createMutation.mutateAsync({ name });
      onCreated(token);
    } catch (error) {
      setFormError(apiErrorMessage(error));
    }
  }

  return (
    <Card>
      <CardContent>
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} className="flex flex-col gap-4" noValidate>
            <FormField
              control={form.control}
              name="name"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("name.label")}</FormLabel>
                  <FormControl>
                    <Input autoComplete="off" placeholder={t("name.placeholder")} {...field} />
                  </FormControl>
                  <FormDescription>{t("name.description")}</FormDescription>
                  <TranslatedFormMessage />
                </FormItem>
              )}
            />
            <FormErrorMessage message={formError} />
            <div>
              <SubmitButton isSubmitting={isSubmitting} disabled={isInvalid || !isDirty}>
                {t("submit")}
              </SubmitButton>
            </div>
          </form>
        </Form>
      </CardContent>
    </Card>
  );
}

function ApiKeyCreatedCard({ token }: { token: string }) {
  const t = useTranslations("apiKeys.create.success");
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
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
      </CardContent>
    </Card>
  );
}
