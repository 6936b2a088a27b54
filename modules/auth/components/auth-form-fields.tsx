"use client";
// The email and password fields of the auth forms.
import type { ReactNode } from "react";
import type { Control, FieldPathByValue, FieldValues } from "react-hook-form";
import { TextFormField } from "@/modules/shared/components/form-fields";

export function EmailFormField<TValues extends { email: string }>({
  control,
  label,
  placeholder,
}: {
  control: Control<TValues>;
  label: string;
  placeholder: string;
}) {
  const name = "email" as FieldPathByValue<TValues, string>;
  return (
    <TextFormField control={control} name={name} label={label} type="email" autoComplete="email" placeholder={placeholder} />
  );
}

export function PasswordFormField<TValues extends FieldValues>({
  control,
  name,
  label,
  autoComplete,
  labelAside,
}: {
  control: Control<TValues>;
  name: FieldPathByValue<TValues, string>;
  label: string;
  autoComplete: "current-password" | "new-password";
  /** See TextFormField's labelAside. */
  labelAside?: ReactNode;
}) {
  return (
    <TextFormField
      control={control}
      name={name}
      label={label}
      type="password"
      autoComplete={autoComplete}
      labelAside={labelAside}
    />
  );
}
