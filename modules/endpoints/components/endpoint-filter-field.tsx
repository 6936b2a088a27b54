"use client";
// The endpoint dialog's filter (docs/webhooks.md: Filters): every mail, or mails where all / any of
// 1 to FILTER_MAX_CONDITIONS conditions hold. A condition is a field, an operator the field takes
// (gt / lt for the spam score only), a header's name for a header field, and a value.
import { PlusIcon, XIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { type Control, useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { IconButtonWithTooltip } from "@/modules/email-callbacks/components/icon-button-with-tooltip";
import { FormFieldItem } from "@/modules/shared/components/form-fields";
import { FILTER_MAX_CONDITIONS, FILTER_MIN_CONDITIONS, FILTER_SPAM_SCORE_FIELD } from "../endpoint-filter.constants";
import {
  type EndpointFormValues,
  FILTER_FORM_FIELDS,
  type FilterFormField,
  getEmptyConditionRow,
  getOperatorsOfField,
} from "./endpoint-form-values";
import { fieldMessageKey } from "./endpoint-labels";

export function EndpointFilterField({ control }: { control: Control<EndpointFormValues> }) {
  const t = useTranslations("endpoints.filter");
  const { setValue } = useFormContext<EndpointFormValues>();
  const conditions = useFieldArray({ control, name: "conditions" });
  const filterMode = useWatch({ control, name: "filterMode" });
  const isFull = conditions.fields.length >= FILTER_MAX_CONDITIONS;
  return (
    <div className="grid gap-3">
      <FormFieldItem control={control} name="filterMode" label={t("title")} description={t("description")}>
        {(field) => (
          <NativeSelect {...field} className="w-full sm:w-fit" style={{ width: "100%" }}>
            <option value="none">{t("modes.none")}</option>
            <option value="all">{t("modes.all")}</option>
            <option value="any">{t("modes.any")}</option>
          </NativeSelect>
        )}
      </FormFieldItem>
      {filterMode === "none" ? null : (
        <>
          <ol className="flex flex-col gap-3">
            {conditions.fields.map((item, index) => (
              <li key={item.id} className="flex items-start gap-2 rounded-md border p-2">
                <ConditionRow control={control} index={index} />
                <IconButtonWithTooltip
                  label={t("removeCondition", { number: index + 1 })}
                  variant="ghost"
                  onClick={() => {
                    // Without its last condition the filter is gone: every mail.
                    if (conditions.fields.length > FILTER_MIN_CONDITIONS) conditions.remove(index);
                    else setValue("filterMode", "none", { shouldDirty: true });
                  }}
                >
                  <XIcon aria-hidden />
                </IconButtonWithTooltip>
              </li>
            ))}
          </ol>
          <div className="flex flex-wrap items-center gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={isFull}
              onClick={() => conditions.append(getEmptyConditionRow(), { shouldFocus: true })}
            >
              <PlusIcon aria-hidden />
              {t("addCondition")}
            </Button>
            {isFull ? (
              <span className="text-muted-foreground text-sm">{t("conditionsFull", { max: FILTER_MAX_CONDITIONS })}</span>
            ) : null}
          </div>
        </>
      )}
    </div>
  );
}

function ConditionRow({ control, index }: { control: Control<EndpointFormValues>; index: number }) {
  const t = useTranslations("endpoints.filter");
  const { setValue, getValues } = useFormContext<EndpointFormValues>();
  const field = useWatch({ control, name: `conditions.${index}.field` });
  const number = index + 1;
  return (
    // One column on a phone; on wider screens the field and its header name (or its operator) side by side.
    <div className="grid min-w-0 flex-1 gap-2 sm:grid-cols-2">
      <FormFieldItem control={control} name={`conditions.${index}.field`} className="min-w-0">
        {(props) => (
          <NativeSelect
            {...props}
            aria-label={t("field", { number })}
            className="w-full"
            onChange={(event) => {
              props.onChange(event);
              // An operator the new field does not take becomes the field's first one.
              const operators = getOperatorsOfField(event.target.value as FilterFormField);
              if (!(operators as readonly string[]).includes(getValues(`conditions.${index}.op`))) {
                setValue(`conditions.${index}.op`, operators[0] ?? "");
              }
            }}
          >
            {FILTER_FORM_FIELDS.map((option) => (
              <option key={option} value={option}>
                {t(`fields.${fieldMessageKey(option)}`)}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormFieldItem>
      {field === "header" ? (
        <FormFieldItem control={control} name={`conditions.${index}.headerName`} className="min-w-0">
          {(props) => (
            <Input
              {...props}
              aria-label={t("headerName", { number })}
              placeholder={t("headerNamePlaceholder")}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              className="font-mono"
            />
          )}
        </FormFieldItem>
      ) : null}
      <FormFieldItem control={control} name={`conditions.${index}.op`} className="min-w-0">
        {(props) => (
          <NativeSelect {...props} aria-label={t("operator", { number })} className="w-full">
            {getOperatorsOfField(field).map((operator) => (
              <option key={operator} value={operator}>
                {t(`operators.${operator}`)}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormFieldItem>
      <FormFieldItem
        control={control}
        name={`conditions.${index}.value`}
        className={field === "header" ? "min-w-0" : "min-w-0 sm:col-span-2"}
      >
        {(props) => (
          <Input
            {...props}
            aria-label={t("value", { number })}
            inputMode={field === FILTER_SPAM_SCORE_FIELD ? "decimal" : undefined}
            placeholder={field === FILTER_SPAM_SCORE_FIELD ? t("scorePlaceholder") : t("valuePlaceholder")}
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </FormFieldItem>
    </div>
  );
}
