"use client";
// The email callback form: the address
// (username @ domain, with a random username when creating), the webhook URL, an optional
// webhook secret (random or removable) and the allowed sender addresses. Server errors are
// mapped to the field they concern, else shown under the form.
import { zodResolver } from "@hookform/resolvers/zod";
import { ShuffleIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useId, useMemo, useState } from "react";
import { type FieldPath, useForm } from "react-hook-form";
import type * as z from "zod/mini";
import { Button } from "@/components/ui/button";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { ApiError } from "@/modules/shared/api/api-client";
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { CopyButton } from "@/modules/shared/components/copy-button";
import { FormErrorMessage, FormFieldItem, SubmitButton } from "@/modules/shared/components/form-fields";
import { TranslatedFormMessage } from "@/modules/shared/components/translated-form-message";
import type { EmailCallbackFormValues, emailCallbackFormSchema } from "../email-callbacks.schemas";
import { generateRandomUsername } from "../random-username";
import { generateWebhookSecret } from "../random-webhook-secret";
import { AllowedOriginsField } from "./allowed-origins-field";
import { DomainOptions, OwnDomainUsernameHelp } from "./domain-options";
import { type DomainChoices, getUsernameHelp } from "./email-callback-domains";
import { buildEmailCallbackFormSchema } from "./email-callback-form-schema";
import { hasNonDefaultMailOptions } from "./email-callback-form-values";
import { IconButtonWithTooltip } from "./icon-button-with-tooltip";
import { MailOptionsFields } from "./mail-options-fields";

export { getEmailCallbackFormValues, getEmptyEmailCallbackFormValues } from "./email-callback-form-values";

export type EmailCallbackFormOutput = z.output<typeof emailCallbackFormSchema>;

export type EmailCallbackFormSubmission = {
  values: EmailCallbackFormOutput;
  /** When editing: the user asked to remove the current webhook secret. */
  removeWebhookSecret: boolean;
};

/** API error codes about one field: shown under it, in the words of apiErrors.<code>; any other under the form. */
const FIELD_OF_ERROR: Record<string, FieldPath<EmailCallbackFormValues>> = {
  "email_callback.already_exists": "username",
  "email_callback.username_not_allowed": "username",
  "email_callback.invalid_domain": "domain",
  "email_callback.invalid_username": "username",
  "email_callback.webhook_url_not_allowed": "webhookUrl",
};

const LIMIT_REACHED_CODE = "email_callbacks.limit_reached";

export function EmailCallbackForm({
  mode,
  domainChoices,
  defaultValues,
  maskedWebhookSecret = null,
  isCreateBlocked = false,
  onLimitReached,
  onSubmit,
}: {
  mode: "create" | "edit";
  /** The domains to choose from, the operator's and the user's own; the only valid ones. */
  domainChoices: DomainChoices;
  defaultValues: EmailCallbackFormValues;
  /** When editing a callback that has a secret: the secret, masked. */
  maskedWebhookSecret?: string | null;
  /** When creating: the plan's limit is reached, so the form cannot be sent (the page says why). */
  isCreateBlocked?: boolean;
  /** The server answered email_callbacks.limit_reached: the page says so, not the form. */
  onLimitReached?: () => void;
  /** Rejects with the API's error when the server refuses. */
  onSubmit: (submission: EmailCallbackFormSubmission) => Promise<void>;
}) {
  const t = useTranslations("emailCallbacks");
  const addressLabelId = useId();
  const usernameInputId = useId();
  const [formError, setFormError] = useState<string | null>(null);
  const apiErrorMessage = useApiErrorMessage();
  const [isRemovingWebhookSecret, setIsRemovingWebhookSecret] = useState(false);
  const usernameHelpId = useId();
  const schema = useMemo(() => buildEmailCallbackFormSchema(domainChoices), [domainChoices]);
  const form = useForm<EmailCallbackFormValues, unknown, EmailCallbackFormOutput>({
    resolver: zodResolver(schema),
    defaultValues,
  });
  const isEditing = mode === "edit";
  const hasWebhookSecret = isEditing && maskedWebhookSecret !== null;

  function fill(name: "username" | "webhookSecret", value: string) {
    form.setValue(name, value, { shouldDirty: true, shouldTouch: true, shouldValidate: form.formState.isSubmitted });
  }

  function showApiError(error: unknown) {
    const code = error instanceof ApiError ? error.code : null;
    const field = code ? FIELD_OF_ERROR[code] : undefined;
    if (field) form.setError(field, { type: "server", message: `apiErrors.${code}` }, { shouldFocus: true });
    else if (code === LIMIT_REACHED_CODE && onLimitReached) onLimitReached();
    else setFormError(apiErrorMessage(error));
  }

  async function submit(values: EmailCallbackFormOutput) {
    setFormError(null);
    try {
      await onSubmit({ values, removeWebhookSecret: isRemovingWebhookSecret });
    } catch (error) {
      showApiError(error);
      return;
    }
    if (isEditing) {
      // What was saved becomes the form's starting point; the new secret is not kept on screen.
      form.reset({ ...values, webhookSecret: "" });
      setIsRemovingWebhookSecret(false);
    }
  }

  const hasDomains = domainChoices.operatorDomains.length + domainChoices.ownDomains.length > 0;
  const chosenDomain = form.watch("domain");
  const usernameHelp = getUsernameHelp(domainChoices, chosenDomain);
  const isUnchanged = !form.formState.isDirty && !isRemovingWebhookSecret;

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(submit)} className="flex flex-col gap-6" noValidate>
        {/* biome-ignore lint/a11y/useSemanticElements: a div with role group lays out as a grid everywhere; a fieldset does not */}
        <div
          role="group"
          aria-labelledby={addressLabelId}
          aria-describedby={usernameHelp ? usernameHelpId : undefined}
          className="grid gap-2"
        >
          {/* The address's label names the group and leads to its first input; red while either part is wrong. */}
          <label
            id={addressLabelId}
            htmlFor={usernameInputId}
            data-error={Boolean(form.formState.errors.username ?? form.formState.errors.domain)}
            className="data-[error=true]:text-destructive text-sm leading-none font-medium"
          >
            {t("form.address")}
          </label>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
            <FormFieldItem control={form.control} name="username" className="min-w-0 flex-1">
              {(field) => (
                <Input
                  id={usernameInputId}
                  aria-label={t("form.username")}
                  placeholder={t("form.usernamePlaceholder")}
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  {...field}
                />
              )}
            </FormFieldItem>
            <div className="flex items-start gap-2">
              <span aria-hidden className="text-muted-foreground flex h-9 items-center">
                @
              </span>
              <FormField
                control={form.control}
                name="domain"
                render={({ field }) => (
                  <FormItem className="min-w-0 flex-1 sm:flex-none">
                    {/* The browser's own select: a plain choice of domain needs no script of its own. */}
                    <FormControl>
                      <NativeSelect
                        {...field}
                        onChange={(event) => {
                          field.onChange(event);
                          // Whether `*` is allowed depends on the domain: the username is checked again.
                          if (form.formState.isSubmitted) void form.trigger("username");
                        }}
                        aria-label={t("form.domain")}
                        className="w-full min-w-40 sm:w-fit"
                      >
                        <option value="" disabled>
                          {t("form.domainPlaceholder")}
                        </option>
                        <DomainOptions {...domainChoices} />
                      </NativeSelect>
                    </FormControl>
                    <TranslatedFormMessage />
                  </FormItem>
                )}
              />
              {isEditing ? null : (
                <IconButtonWithTooltip
                  label={t("form.randomUsername")}
                  onClick={() => fill("username", generateRandomUsername())}
                >
                  <ShuffleIcon aria-hidden />
                </IconButtonWithTooltip>
              )}
            </div>
          </div>
          {usernameHelp === "ownDomain" ? <OwnDomainUsernameHelp id={usernameHelpId} domain={chosenDomain} /> : null}
          {hasDomains ? null : <p className="text-muted-foreground text-sm">{t("form.noDomains")}</p>}
        </div>

        <FormFieldItem
          control={form.control}
          name="webhookUrl"
          label={t("form.webhookUrl")}
          description={t("form.webhookUrlDescription")}
        >
          {(field) => (
            <Input
              type="url"
              inputMode="url"
              placeholder={t("form.webhookUrlPlaceholder")}
              autoComplete="off"
              spellCheck={false}
              {...field}
            />
          )}
        </FormFieldItem>

        <FormField
          control={form.control}
          name="webhookSecret"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t("form.webhookSecret")}</FormLabel>
              <div className="flex items-center gap-2">
                <FormControl>
                  <Input
                    autoComplete="off"
                    spellCheck={false}
                    className="font-mono"
                    {...field}
                    placeholder={isRemovingWebhookSecret ? t("form.webhookSecretRemoved") : (maskedWebhookSecret ?? undefined)}
                    disabled={isRemovingWebhookSecret}
                  />
                </FormControl>
                {field.value ? (
                  <CopyButton value={field.value} label={t("form.copyWebhookSecret")} variant="outline" size="icon" />
                ) : null}
                <IconButtonWithTooltip
                  label={t("form.randomWebhookSecret")}
                  onClick={() => {
                    setIsRemovingWebhookSecret(false);
                    fill("webhookSecret", generateWebhookSecret());
                  }}
                >
                  <ShuffleIcon aria-hidden />
                </IconButtonWithTooltip>
                {hasWebhookSecret ? (
                  <Button
                    type="button"
                    variant="ghost"
                    onClick={() => {
                      if (!isRemovingWebhookSecret) fill("webhookSecret", "");
                      setIsRemovingWebhookSecret(!isRemovingWebhookSecret);
                    }}
                  >
                    {isRemovingWebhookSecret ? t("form.keepWebhookSecret") : t("form.removeWebhookSecret")}
                  </Button>
                ) : null}
              </div>
              {isRemovingWebhookSecret ? null : (
                <FormDescription>
                  {hasWebhookSecret ? t("form.webhookSecretEditDescription") : t("form.webhookSecretDescription")}
                </FormDescription>
              )}
              <TranslatedFormMessage />
            </FormItem>
          )}
        />

        <AllowedOriginsField control={form.control} errors={form.formState.errors.allowedOrigins} />

        <MailOptionsFields control={form.control} defaultOpen={isEditing && hasNonDefaultMailOptions(defaultValues)} />

        <FormErrorMessage message={formError} />
        <div className="flex justify-end">
          <SubmitButton isSubmitting={form.formState.isSubmitting} disabled={isEditing ? isUnchanged : isCreateBlocked}>
            {isEditing ? t("form.save") : t("form.create")}
          </SubmitButton>
        </div>
      </form>
    </Form>
  );
}
