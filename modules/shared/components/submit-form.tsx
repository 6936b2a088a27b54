"use client";
// A react-hook-form form validated by a zod schema: its fields, the form-level error (what the
// submit handler answers) and the submit button, spinning while the form submits.
import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useState } from "react";
import { type DefaultValues, type FieldValues, type UseFormReturn, useForm } from "react-hook-form";
import type { $ZodType } from "zod/v4/core";
import { Form } from "@/components/ui/form";
import { FormErrorMessage, SubmitButton } from "./form-fields";

export function useZodForm<TValues extends FieldValues>(
  schema: $ZodType<TValues, TValues>,
  defaultValues: DefaultValues<TValues>,
  /** "onChange": each field's error shows as it is typed, not only after the first submit. */
  mode: "onSubmit" | "onChange" = "onSubmit",
): UseFormReturn<TValues> {
  return useForm<TValues>({ resolver: zodResolver(schema), defaultValues, mode });
}

export function SubmitForm<TValues extends FieldValues>({
  form,
  onSubmit,
  submitLabel,
  isSubmitDisabled = false,
  isSubmitFullWidth = true,
  children,
}: {
  form: UseFormReturn<TValues>;
  /** Answers the form-level error to show, or nothing when it went well. */
  onSubmit: (values: TValues) => Promise<string | undefined>;
  submitLabel: string;
  /** Disabled for a reason of the form's own (it is always disabled while submitting). */
  isSubmitDisabled?: boolean;
  /** The button spans the form's width; otherwise it keeps the width of its label. */
  isSubmitFullWidth?: boolean;
  children: ReactNode;
}) {
  const [formError, setFormError] = useState<string | null>(null);

  async function submit(values: TValues) {
    setFormError(null);
    setFormError((await onSubmit(values)) ?? null);
  }

  const submitButton = (
    <SubmitButton isSubmitting={form.formState.isSubmitting} disabled={isSubmitDisabled}>
      {submitLabel}
    </SubmitButton>
  );
  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(submit)} className="flex flex-col gap-4" noValidate>
        {children}
        <FormErrorMessage message={formError} />
        {isSubmitFullWidth ? submitButton : <div>{submitButton}</div>}
      </form>
    </Form>
  );
}
