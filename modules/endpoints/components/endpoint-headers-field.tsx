"use client";
// The endpoint dialog's custom headers: rows of name and value, added and removed, at most
// MAX_ENDPOINT_HEADERS; each row's error under it (endpointHeaderRowsSchema).
import { PlusIcon, XIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { type Control, useFieldArray } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { IconButtonWithTooltip } from "@/modules/email-callbacks/components/icon-button-with-tooltip";
import { FormFieldItem } from "@/modules/shared/components/form-fields";
import { MAX_ENDPOINT_HEADERS } from "../endpoints.constants";
import type { EndpointFormValues } from "./endpoint-form-values";

export function EndpointHeadersField({ control }: { control: Control<EndpointFormValues> }) {
  const t = useTranslations("endpoints.dialog");
  const headers = useFieldArray({ control, name: "headers" });
  const isFull = headers.fields.length >= MAX_ENDPOINT_HEADERS;
  return (
    <div className="grid gap-2">
      <span className="text-sm leading-none font-medium">{t("headers")}</span>
      <p className="text-muted-foreground text-sm">{t("headersDescription", { max: MAX_ENDPOINT_HEADERS })}</p>
      {headers.fields.length > 0 ? (
        <ul className="flex flex-col gap-3">
          {headers.fields.map((item, index) => (
            <li key={item.id} className="flex items-start gap-2">
              <div className="grid min-w-0 flex-1 gap-2 sm:grid-cols-2">
                <FormFieldItem control={control} name={`headers.${index}.name`}>
                  {(field) => (
                    <Input
                      aria-label={t("headerName", { number: index + 1 })}
                      placeholder={t("headerNamePlaceholder")}
                      autoComplete="off"
                      autoCapitalize="none"
                      spellCheck={false}
                      className="font-mono"
                      {...field}
                    />
                  )}
                </FormFieldItem>
                <FormFieldItem control={control} name={`headers.${index}.value`}>
                  {(field) => (
                    <Input
                      aria-label={t("headerValue", { number: index + 1 })}
                      placeholder={t("headerValuePlaceholder")}
                      autoComplete="off"
                      spellCheck={false}
                      className="font-mono"
                      {...field}
                    />
                  )}
                </FormFieldItem>
              </div>
              <IconButtonWithTooltip
                label={t("removeHeader", { number: index + 1 })}
                variant="ghost"
                onClick={() => headers.remove(index)}
              >
                <XIcon aria-hidden />
              </IconButtonWithTooltip>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={isFull}
          onClick={() => headers.append({ name: "", value: "" }, { shouldFocus: true })}
        >
          <PlusIcon aria-hidden />
          {t("addHeader")}
        </Button>
        {isFull ? <span className="text-muted-foreground text-sm">{t("headersFull", { max: MAX_ENDPOINT_HEADERS })}</span> : null}
      </div>
    </div>
  );
}
