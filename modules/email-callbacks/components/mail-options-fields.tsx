"use client";
// The "Advanced" part of the email callback form: how attachments reach the webhook, whether only
// mail that passes DMARC is delivered, and the spam threshold (docs/webhooks.md: Per-address options).
import { ChevronRightIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import type * as React from "react";
import { useEffect, useId, useState } from "react";
import type { Control } from "react-hook-form";
import { FormField } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { FormFieldItem } from "@/modules/shared/components/form-fields";
import type { EmailCallbackFormValues } from "../email-callbacks.schemas";

type ChoiceName = "attachmentDelivery" | "authenticationPolicy";

/** The choices of the section, each value with the key of its label. */
const CHOICES = [
  {
    name: "attachmentDelivery",
    descriptionKey: "attachmentDeliveryDescription",
    options: [
      { value: "inline", labelKey: "attachmentDeliveryInline" },
      { value: "url", labelKey: "attachmentDeliveryUrl" },
    ],
  },
  {
    name: "authenticationPolicy",
    descriptionKey: "authenticationPolicyDescription",
    options: [
      { value: "none", labelKey: "authenticationPolicyNone" },
      { value: "dmarc", labelKey: "authenticationPolicyDmarc" },
    ],
  },
] as const satisfies { name: ChoiceName; descriptionKey: string; options: { value: string; labelKey: string }[] }[];

/** A choice of two or three: native radio buttons in a fieldset (its legend names the group). */
function ChoiceField({
  control,
  name,
  description,
  options,
}: {
  control: Control<EmailCallbackFormValues>;
  name: ChoiceName;
  description: string;
  options: { value: string; label: string }[];
}) {
  const t = useTranslations("emailCallbacks.form");
  const descriptionId = useId();
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <fieldset className="grid gap-2" aria-describedby={descriptionId}>
          <legend className="mb-2 text-sm leading-none font-medium">{t(name)}</legend>
          {options.map((option) => (
            <label key={option.value} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                className="accent-primary mt-0.5 size-4 shrink-0"
                name={field.name}
                value={option.value}
                checked={field.value === option.value}
                onChange={() => field.onChange(option.value)}
                onBlur={field.onBlur}
              />
              {option.label}
            </label>
          ))}
          <p id={descriptionId} className="text-muted-foreground text-sm">
            {description}
          </p>
        </fieldset>
      )}
    />
  );
}

/** The threshold as typed: empty is "no threshold", anything else a number (validated by the schema). */
const toThreshold = (text: string): number | null => (text.trim() === "" ? null : Number(text.replace(",", ".")));

/** Keeps the text as typed ("7," on the way to "7,5"), and hands the form its number. */
function ThresholdInput({
  value,
  onChange,
  inputRef,
  ...props
}: {
  value: number | null;
  onChange: (value: number | null) => void;
  inputRef: React.Ref<HTMLInputElement>;
  name: string;
  placeholder: string;
  onBlur: () => void;
}) {
  const [text, setText] = useState(value === null ? "" : String(value));
  // A value set from outside (the form reset after saving) replaces the text.
  useEffect(() => {
    setText((current) => (Object.is(toThreshold(current), value) ? current : value === null ? "" : String(value)));
  }, [value]);
  return (
    <Input
      {...props}
      ref={inputRef}
      inputMode="decimal"
      className="sm:w-40"
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        onChange(toThreshold(event.target.value));
      }}
    />
  );
}

export function MailOptionsFields({ control, defaultOpen }: { control: Control<EmailCallbackFormValues>; defaultOpen: boolean }) {
  const t = useTranslations("emailCallbacks.form");
  return (
    <details open={defaultOpen} className="group rounded-lg border">
      <summary className="flex cursor-pointer list-none items-center gap-2 px-4 py-3 text-sm font-medium [&::-webkit-details-marker]:hidden">
        <ChevronRightIcon aria-hidden className="size-4 transition-transform group-open:rotate-90" />
        {t("advanced")}
      </summary>
      <div className="flex flex-col gap-6 border-t px-4 py-4">
        <p className="text-muted-foreground text-sm">{t("advancedDescription")}</p>
        {CHOICES.map(({ name, descriptionKey, options }) => (
          <ChoiceField
            key={name}
            control={control}
            name={name}
            description={t(descriptionKey)}
            options={options.map(({ value, labelKey }) => ({ value, label: t(labelKey) }))}
          />
        ))}
        <FormFieldItem
          control={control}
          name="spamThreshold"
          label={t("spamThreshold")}
          description={t("spamThresholdDescription")}
        >
          {(field) => (
            <ThresholdInput
              placeholder={t("spamThresholdPlaceholder")}
              name={field.name}
              inputRef={field.ref}
              onBlur={field.onBlur}
              value={field.value ?? null}
              onChange={field.onChange}
            />
          )}
        </FormFieldItem>
      </div>
    </details>
  );
}
