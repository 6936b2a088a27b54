"use client";
// A form field's error, translated: our zod schemas carry i18n keys as their messages.
import { useTranslations } from "next-intl";
import { useFormField } from "@/components/ui/form";
import { cn } from "@/modules/shared/cn";

export function TranslatedFormMessage({ className }: { className?: string }) {
  const t = useTranslations();
  const { error, formMessageId } = useFormField();
  const key = error?.message;
  if (!key) return null;
  const text = t.has(key as never) ? t(key as never) : key;
  return (
    <p data-slot="form-message" id={formMessageId} className={cn("text-destructive text-sm", className)}>
      {text}
    </p>
  );
}
