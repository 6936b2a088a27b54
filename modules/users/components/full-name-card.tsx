"use client";
// The account's full name (specification §2 Account settings, §5): editable, saved through
// PUT /api/users/me, then the session is refreshed so every screen shows the new name.
import { zodResolver } from "@hookform/resolvers/zod";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form, FormControl, FormField, FormItem } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { authClient } from "@/modules/auth/auth.client";
import { TranslatedFormMessage } from "@/modules/i18n/components/translated-form-message";
import { ApiError, apiFetch } from "@/modules/shared/api/api-client";
import { updateUserSchema, type UpdateUserInput } from "../users.schemas";

async function refreshSession() {
  await authClient.getSession({ query: { disableCookieCache: true } });
  authClient.$store.notify("$sessionSignal");
}

export function FullNameCard({ currentName }: { currentName: string }) {
  const t = useTranslations("settings.fullName");
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
      setFormError(error instanceof ApiError ? error.message : t("unknownError"));
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
            <FormField
              control={form.control}
              name="name"
              render={({ field }) => (
                <FormItem>
                  <FormControl>
                    <Input aria-label={t("title")} autoComplete="name" placeholder={t("placeholder")} {...field} />
                  </FormControl>
                  <TranslatedFormMessage />
                </FormItem>
              )}
            />
            {formError ? (
              <p role="alert" className="text-destructive text-sm">
                {formError}
              </p>
            ) : null}
            <div>
              <Button type="submit" disabled={isUnchanged || form.formState.isSubmitting}>
                {form.formState.isSubmitting ? <Spinner /> : null}
                {t("submit")}
              </Button>
            </div>
          </form>
        </Form>
      </CardContent>
    </Card>
  );
}
