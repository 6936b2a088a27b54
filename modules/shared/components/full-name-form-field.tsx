"use client";
// The person's full name field, in the register form and the account settings.
import type { Control, FieldPathByValue } from "react-hook-form";
import { TextFormField } from "./form-fields";

export function FullNameFormField<TValues extends { name: string }>({
  control,
  label,
  placeholder,
  hideLabel,
}: {
  control: Control<TValues>;
  label: string;
  placeholder: string;
  /** See TextFormField's hideLabel. */
  hideLabel?: boolean;
}) {
  const name = "name" as FieldPathByValue<TValues, string>;
  return (
    <TextFormField
      control={control}
      name={name}
      label={label}
      hideLabel={hideLabel}
      autoComplete="name"
      placeholder={placeholder}
    />
  );
}
