"use client";
// The endpoint dialog's form: where to (URL), what (JSON or the raw message), how it is signed (HMAC
// with a secret of the user's or a generated one, or Ed25519; `none` only for an endpoint that has
// it), the timeout, enabled, custom headers and the filter. A server error about the URL shows
// under it; any other (a filter or header the server refuses, the plan's limit) under the form.
import { zodResolver } from "@hookform/resolvers/zod";
import { ShuffleIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Checkbox } from "@/components/ui/checkbox";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { IconButtonWithTooltip } from "@/modules/email-callbacks/components/icon-button-with-tooltip";
import { generateWebhookSecret } from "@/modules/email-callbacks/random-webhook-secret";
import { ApiError } from "@/modules/shared/api/api-client";
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { FormErrorMessage, FormFieldItem, SubmitButton } from "@/modules/shared/components/form-fields";
import { TranslatedFormMessage } from "@/modules/shared/components/translated-form-message";
import { ENDPOINT_TIMEOUT_MAX_MS, ENDPOINT_TIMEOUT_MIN_MS } from "../endpoints.constants";
import type { ApiEndpoint } from "../endpoints.models";
import { EndpointFilterField } from "./endpoint-filter-field";
import { type EndpointFormOutput, endpointFormSchema } from "./endpoint-form-schema";
import type { EndpointFormValues } from "./endpoint-form-values";
import { EndpointHeadersField } from "./endpoint-headers-field";
import { PublicKeyField } from "./public-key-field";

const URL_NOT_ALLOWED_CODE = "email_callback.webhook_url_not_allowed";

export function EndpointForm({
  endpoint,
  defaultValues,
  onSubmit,
}: {
  /** The endpoint being edited; null for a new one. */
  endpoint: ApiEndpoint | null;
  defaultValues: EndpointFormValues;
  /** Rejects with the API's error when the server refuses. */
  onSubmit: (values: EndpointFormOutput) => Promise<void>;
}) {
  const t = useTranslations("endpoints.dialog");
  const apiErrorMessage = useApiErrorMessage();
  const [formError, setFormError] = useState<string | null>(null);
  const enabledId = useId();
  const form = useForm<EndpointFormValues, unknown, EndpointFormOutput>({
    resolver: zodResolver(endpointFormSchema),
    defaultValues,
  });
  const signingScheme = form.watch("signingScheme");
  const current = endpoint?.signing;

  async function submit(values: EndpointFormOutput) {
    setFormError(null);
    try {
      await onSubmit(values);
    } catch (error) {
      if (error instanceof ApiError && error.code === URL_NOT_ALLOWED_CODE) {
        form.setError("url", { type: "server", message: `apiErrors.${URL_NOT_ALLOWED_CODE}` }, { shouldFocus: true });
      } else {
        setFormError(apiErrorMessage(error));
      }
    }
  }

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(submit)} className="flex min-w-0 flex-col gap-5" noValidate>
        <FormFieldItem control={form.control} name="url" label={t("url")} description={t("urlDescription")}>
          {(field) => (
            <Input
              type="url"
              inputMode="url"
              placeholder={t("urlPlaceholder")}
              autoComplete="off"
              spellCheck={false}
              {...field}
            />
          )}
        </FormFieldItem>

        <div className="grid gap-5 sm:grid-cols-2">
          <FormFieldItem control={form.control} name="format" label={t("format")}>
            {(field) => (
              <NativeSelect {...field} className="w-full">
                <option value="json">{t("formats.json")}</option>
                <option value="raw">{t("formats.raw")}</option>
              </NativeSelect>
            )}
          </FormFieldItem>
          <FormFieldItem control={form.control} name="signingScheme" label={t("signing")}>
            {(field) => (
              <NativeSelect {...field} className="w-full">
                <option value="hmac">{t("schemes.hmac")}</option>
                <option value="ed25519">{t("schemes.ed25519")}</option>
                {current?.scheme === "none" ? <option value="none">{t("schemes.none")}</option> : null}
              </NativeSelect>
            )}
          </FormFieldItem>
        </div>

        {signingScheme === "hmac" ? (
          <FormField
            control={form.control}
            name="secret"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t("secret")}</FormLabel>
                <div className="flex items-center gap-2">
                  <FormControl>
                    <Input
                      autoComplete="off"
                      spellCheck={false}
                      className="font-mono"
                      placeholder={current?.scheme === "hmac" ? current.maskedSecret : t("secretPlaceholder")}
                      {...field}
                    />
                  </FormControl>
                  <IconButtonWithTooltip
                    label={t("randomSecret")}
                    onClick={() => form.setValue("secret", generateWebhookSecret(), { shouldDirty: true })}
                  >
                    <ShuffleIcon aria-hidden />
                  </IconButtonWithTooltip>
                </div>
                <FormDescription>
                  {current?.scheme === "hmac" ? t("secretKeepDescription") : t("secretDescription")}
                </FormDescription>
                <TranslatedFormMessage />
              </FormItem>
            )}
          />
        ) : null}
        {signingScheme === "ed25519" && current?.scheme === "ed25519" ? <PublicKeyField publicKey={current.publicKey} /> : null}
        {signingScheme === "ed25519" && current?.scheme !== "ed25519" ? (
          <p className="text-muted-foreground text-sm">{t("ed25519Description")}</p>
        ) : null}
        {signingScheme === "none" ? <p className="text-muted-foreground text-sm">{t("noneDescription")}</p> : null}

        <FormFieldItem
          control={form.control}
          name="timeoutMs"
          label={t("timeout")}
          description={t("timeoutDescription", { min: ENDPOINT_TIMEOUT_MIN_MS, max: ENDPOINT_TIMEOUT_MAX_MS })}
        >
          {(field) => (
            <Input inputMode="numeric" placeholder={t("timeoutPlaceholder")} autoComplete="off" className="sm:w-48" {...field} />
          )}
        </FormFieldItem>

        <FormField
          control={form.control}
          name="isEnabled"
          render={({ field }) => (
            <div className="flex items-center gap-2">
              <Checkbox id={enabledId} checked={field.value} onCheckedChange={(checked) => field.onChange(checked === true)} />
              <Label htmlFor={enabledId} className="font-normal">
                {t("enabled")}
              </Label>
            </div>
          )}
        />

        <EndpointHeadersField control={form.control} />
        <EndpointFilterField control={form.control} />

        <FormErrorMessage message={formError} />
        <div className="flex justify-end">
          <SubmitButton isSubmitting={form.formState.isSubmitting}>{endpoint ? t("save") : t("create")}</SubmitButton>
        </div>
      </form>
    </Form>
  );
}
