"use client";
// The account's full name: editable, saved through
// PUT /api/users/me, then the session is refreshed so every screen shows the new name.
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form } from "@/components/ui/form";
import { toast } from "@/components/ui/sonner";
import { authClient } from "@/modules/auth/auth.client";
import { apiFetch } from "@/modules/shared/api/api-client";
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { FormErrorMessage, SubmitButton, TextFormField } from "@/modules/shared/components/form-fields";
import { type UpdateUserInput, updateUserSchema } from "../users.schemas";

async function refreshSession() {
  await authClient.getSession({ query: { disableCookieCache: true } });
  authClient.$store.notify("$sessionSignal");
}

export function FullNameCard({ currentName }: { currentName: string }) {
  const t = useTranslations("settings.fullName");
  const apiErrorMessage = useApiErrorMessage();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<UpdateUserInput>({
    resolver: zodResolver(updateUserSchema),
    defaultValues: { name: currentName },
  });
  const name = useWatch({ control: form.control, name: "name" });
  const isUnchanged = name.trim() === currentName;

  async function onSubmit(values: UpdateUserInput) {
    setFormError(null);
    try {
      await apiFetch("/api/users/me", { method: "PUT", body: { name: values.name } });
    } catch (error) {
      setFormError(apiErrorMessage(error));
      return;
    }
    form.reset({ name: values.name });
    await refreshSession();
    toast.success(t("success"));
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} className="flex flex-col gap-4" noValidate>
            <TextFormField
              control={form.control}
              name="name"
              label={t("title")}
              hideLabel
              autoComplete="name"
              placeholder={t("placeholder")}
            />
            <FormErrorMessage message={formError} />
            <div>
              <SubmitButton isSubmitting={form.formState.isSubmitting} disabled={isUnchanged}>
                {t("submit")}
              </SubmitButton>
            </div>
          </form>
        </Form>
      </CardContent>
    </Card>
  );
}
