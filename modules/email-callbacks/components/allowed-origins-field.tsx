"use client";
// The callback form's list of allowed sender addresses (add and remove rows; each one validated).
import { PlusIcon, XIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { type Control, type FieldErrors, useFieldArray } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormControl, FormField, FormItem } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { TranslatedFormMessage } from "@/modules/shared/components/translated-form-message";
import type { EmailCallbackFormValues } from "../email-callbacks.schemas";
import { IconButtonWithTooltip } from "./icon-button-with-tooltip";

export function AllowedOriginsField({
  control,
  errors,
}: {
  control: Control<EmailCallbackFormValues>;
  errors: FieldErrors<EmailCallbackFormValues>["allowedOrigins"];
}) {
  const t = useTranslations("emailCallbacks");
  const allowedOrigins = useFieldArray({ control, name: "allowedOrigins" });
  return (
    <div className="grid gap-2">
      <span className="text-sm leading-none font-medium">{t("form.allowedOrigins")}</span>
      <p className="text-muted-foreground text-sm">{t("form.allowedOriginsDescription")}</p>
      {allowedOrigins.fields.length > 0 ? (
        <ul className="flex flex-col gap-2">
          {allowedOrigins.fields.map((item, index) => (
            <li key={item.id}>
              <FormField
                control={control}
                name={`allowedOrigins.${index}.value`}
                render={({ field }) => (
                  <FormItem>
                    <div className="flex items-center gap-2">
                      <FormControl>
                        <Input
                          aria-label={t("form.allowedOrigin", { number: index + 1 })}
                          placeholder={t("form.allowedOriginPlaceholder")}
                          inputMode="email"
                          autoComplete="off"
                          autoCapitalize="none"
                          spellCheck={false}
                          {...field}
                        />
                      </FormControl>
                      <IconButtonWithTooltip
                        label={t("form.removeAllowedOrigin", { number: index + 1 })}
                        variant="ghost"
                        onClick={() => allowedOrigins.remove(index)}
                      >
                        <XIcon aria-hidden />
                      </IconButtonWithTooltip>
                    </div>
                    <TranslatedFormMessage />
                  </FormItem>
                )}
              />
            </li>
          ))}
        </ul>
      ) : null}
      <ArrayErrorMessage message={errors?.root?.message ?? errors?.message} />
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => allowedOrigins.append({ value: "" }, { shouldFocus: true })}
        >
          <PlusIcon aria-hidden />
          {t("form.addAllowedOrigin")}
        </Button>
      </div>
    </div>
  );
}

/** An error of the whole sender list (too many entries), translated. */
function ArrayErrorMessage({ message }: { message: string | undefined }) {
  const t = useTranslations();
  if (!message) return null;
  return <p className="text-destructive text-sm">{t.has(message as never) ? t(message as never) : message}</p>;
}
