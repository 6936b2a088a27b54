"use client";
// The account's full name: editable, saved through
// PUT /api/users/me, then the session is refreshed so every screen shows the new name.
import { useTranslations } from "next-intl";
import { useWatch } from "react-hook-form";
import { refreshSession } from "@/modules/auth/use-session";
import { apiFetch } from "@/modules/shared/api/api-client";
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { FullNameFormField } from "@/modules/shared/components/full-name-form-field";
import { SubmitForm, useZodForm } from "@/modules/shared/components/submit-form";
import { TitledCard } from "@/modules/shared/components/titled-card";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import { type FullNameFormInput, fullNameFormSchema } from "../users.schemas";

export function FullNameCard({ currentName }: { currentName: string }) {
  const t = useTranslations("settings.fullName");
  const toast = useToast();
  const apiErrorMessage = useApiErrorMessage();
  const form = useZodForm(fullNameFormSchema, { name: currentName });
  const name = useWatch({ control: form.control, name: "name" });
  const isUnchanged = name.trim() === currentName;

  async function onSubmit(values: FullNameFormInput) {
    try {
      await apiFetch("/api/users/me", { method: "PUT", body: { name: values.name } });
    } catch (error) {
      return apiErrorMessage(error);
    }
    form.reset({ name: values.name });
    await refreshSession();
    toast.success(t("success"));
  }

  return (
    <TitledCard title={t("title")} description={t("description")}>
      <SubmitForm
        form={form}
        onSubmit={onSubmit}
        submitLabel={t("submit")}
        isSubmitDisabled={isUnchanged}
        isSubmitFullWidth={false}
      >
        <FullNameFormField control={form.control} label={t("title")} placeholder={t("placeholder")} hideLabel />
      </SubmitForm>
    </TitledCard>
  );
}
