"use client";
// The building blocks our react-hook-form forms share: a field of one control with its label,
// description and translated error, a labelled text input, the form-level error, and the submit
// button that spins while the form submits.
import type { ReactNode } from "react";
import type { Control, ControllerRenderProps, FieldPath, FieldPathByValue, FieldValues } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormControl, FormDescription, FormField, FormItem, FormLabel } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { TranslatedFormMessage } from "./translated-form-message";

type TextFormFieldProps<TFieldValues extends FieldValues> = {
  control: Control<TFieldValues>;
  /** A field of the form whose value is a string. */
  name: FieldPathByValue<TFieldValues, string>;
  label: string;
  type?: "email" | "password" | "text";
  autoComplete?: string;
  placeholder?: string;
  /**
   * Shown at the end of the label's row (e.g. a "Forgot password?" link). When given, even as
   * null, the label and it share a row; when left out, the label stands alone.
   */
  labelAside?: ReactNode;
  /** No visible label: the input is named by `label` through aria-label. */
  hideLabel?: boolean;
};

export function TextFormField<TFieldValues extends FieldValues>({
  control,
  name,
  label,
  type,
  autoComplete,
  placeholder,
  labelAside,
  hideLabel = false,
}: TextFormFieldProps<TFieldValues>) {
  return (
    <FormFieldItem control={control} name={name} label={hideLabel ? undefined : label} labelAside={labelAside}>
      {(field) => (
        <Input
          aria-label={hideLabel ? label : undefined}
          type={type}
          autoComplete={autoComplete}
          placeholder={placeholder}
          {...field}
        />
      )}
    </FormFieldItem>
  );
}

/**
 * A form field of one control, drawn by `children` from the field's props: its label, the control,
 * its description and its translated error.
 */
export function FormFieldItem<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>>({
  control,
  name,
  label,
  labelAside,
  description,
  className,
  children,
}: {
  control: Control<TFieldValues>;
  name: TName;
  /** Left out when the control is named otherwise (its aria-label). */
  label?: ReactNode;
  /** See TextFormField's labelAside. */
  labelAside?: ReactNode;
  description?: ReactNode;
  className?: string;
  children: (field: ControllerRenderProps<TFieldValues, TName>) => ReactNode;
}) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem className={className}>
          {label === undefined ? null : labelAside !== undefined ? (
            <div className="flex items-center justify-between">
              <FormLabel>{label}</FormLabel>
              {labelAside}
            </div>
          ) : (
            <FormLabel>{label}</FormLabel>
          )}
          <FormControl>{children(field)}</FormControl>
          {description === undefined ? null : <FormDescription>{description}</FormDescription>}
          <TranslatedFormMessage />
        </FormItem>
      )}
    />
  );
}

/** The form-level error (e.g. the server's answer), announced to screen readers; nothing when empty. */
export function FormErrorMessage({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-destructive text-sm">
      {message}
    </p>
  );
}

export function SubmitButton({
  isSubmitting,
  disabled = false,
  className,
  children,
}: {
  isSubmitting: boolean;
  /** Disabled for a reason of the form's own (it is always disabled while submitting). */
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Button type="submit" disabled={disabled || isSubmitting} className={className}>
      {isSubmitting ? <Spinner /> : null}
      {children}
    </Button>
  );
}
