// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { NextIntlClientProvider } from "next-intl";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TooltipProvider } from "@/components/ui/tooltip";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import { ApiError } from "@/modules/shared/api/api-client";
import { ToastsOnDemandProvider } from "@/modules/shared/components/toasts-on-demand";
import { EmailCallbackForm, type EmailCallbackFormSubmission, getEmptyEmailCallbackFormValues } from "./email-callback-form";

afterEach(cleanup);

const LOCALES = [
  {
    locale: "en",
    messages: en,
    labels: {
      username: "Username",
      webhookUrl: "Webhook URL",
      webhookSecret: "Webhook secret",
      addAllowedOrigin: "Add sender address",
      allowedOrigin: "Allowed sender address 1",
      randomUsername: "Generate a random username",
      randomWebhookSecret: "Generate a random secret",
      submit: "Create email",
    },
    texts: {
      usernameRequired: "Please enter a username",
      usernameNotAllowed: "This username is not allowed, please choose a different one",
      usernamePatternInvalid:
        "A pattern needs a letter, digit, dash, dot or underscore besides *, or is * alone (every address of the domain)",
      domainInvalid: "Invalid domain",
      webhookUrlRequired: "Please enter the webhook URL",
      webhookUrlInvalid: "Please enter a valid URL",
      webhookSecretTooShort: "Secret must be at least 16 characters long",
      allowedOriginRequired: "Please enter a sender address",
      allowedOriginInvalid: "Please enter a valid email address, or @domain for a whole domain",
      alreadyExists: "An email with this username already exists",
      limitReached:
        "You have reached the maximum number of emails you can create, please upgrade your plan to create more emails.",
      unknown: "An error has occurred, please try again.",
    },
  },
  {
    locale: "fr",
    messages: fr,
    labels: {
      username: "Nom d'utilisateur",
      webhookUrl: "URL du webhook",
      webhookSecret: "Secret du webhook",
      addAllowedOrigin: "Ajouter un expéditeur",
      allowedOrigin: "Expéditeur autorisé 1",
      randomUsername: "Générer un nom d'utilisateur aléatoire",
      randomWebhookSecret: "Générer un secret aléatoire",
      submit: "Créer l'adresse",
    },
    texts: {
      usernameRequired: "Veuillez saisir un nom d'utilisateur",
      usernameNotAllowed: "Ce nom d'utilisateur n'est pas autorisé, veuillez en choisir un autre",
      usernamePatternInvalid:
        "Un motif contient une lettre, un chiffre, un tiret, un point ou un tiret bas en plus de *, ou est * seul (toutes les adresses du domaine)",
      domainInvalid: "Domaine invalide",
      webhookUrlRequired: "Veuillez saisir l'URL du webhook",
      webhookUrlInvalid: "Veuillez saisir une URL valide",
      webhookSecretTooShort: "Le secret doit contenir au moins 16 caractères",
      allowedOriginRequired: "Veuillez saisir une adresse d'expéditeur",
      allowedOriginInvalid: "Veuillez saisir une adresse e-mail valide, ou @domaine pour tout un domaine",
      alreadyExists: "Une adresse avec ce nom d'utilisateur existe déjà",
      limitReached:
        "Vous avez atteint le nombre maximal d'adresses que vous pouvez créer, passez à un plan supérieur pour en créer davantage.",
      unknown: "Une erreur est survenue, veuillez réessayer.",
    },
  },
] as const;

describe.each(LOCALES)("the email callback form in $locale", ({ locale, messages, labels, texts }) => {
  function renderForm({
    availableDomains = ["hookmail.test", "example.org"],
    onSubmit = vi.fn(async (_submission: EmailCallbackFormSubmission) => {}),
    isCreateBlocked,
    onLimitReached,
  }: {
    availableDomains?: string[];
    onSubmit?: (submission: EmailCallbackFormSubmission) => Promise<void>;
    isCreateBlocked?: boolean;
    onLimitReached?: () => void;
  } = {}) {
    render(
      // The form's tooltips need the provider that every page has, with its delay (app-providers.tsx).
      <NextIntlClientProvider locale={locale} messages={messages}>
        <ToastsOnDemandProvider>
          <TooltipProvider delayDuration={700}>
            <EmailCallbackForm
              mode="create"
              domainChoices={{ operatorDomains: availableDomains, ownDomains: [] }}
              defaultValues={getEmptyEmailCallbackFormValues(availableDomains)}
              isCreateBlocked={isCreateBlocked}
              onLimitReached={onLimitReached}
              onSubmit={onSubmit}
            />
          </TooltipProvider>
        </ToastsOnDemandProvider>
      </NextIntlClientProvider>,
    );
    return { user: userEvent.setup(), onSubmit };
  }

  async function fillValidValues(user: ReturnType<typeof userEvent.setup>) {
    await user.type(screen.getByLabelText(labels.username), "Brave-Otter-42");
    await user.type(screen.getByLabelText(labels.webhookUrl), "https://example.com/hook");
  }

  it("asks for the username and the webhook URL when they are empty, and sends nothing", async () => {
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole("button", { name: labels.submit }));
    expect(await screen.findByText(texts.usernameRequired)).toBeTruthy();
    expect(screen.getByText(texts.webhookUrlRequired)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("refuses a pattern of stars alone, an invalid URL and a secret shorter than 16 characters", async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText(labels.username), "**");
    await user.type(screen.getByLabelText(labels.webhookUrl), "not a url");
    await user.type(screen.getByLabelText(labels.webhookSecret), "too-short");
    await user.click(screen.getByRole("button", { name: labels.submit }));
    expect(await screen.findByText(texts.usernamePatternInvalid)).toBeTruthy();
    expect(screen.getByText(texts.webhookUrlInvalid)).toBeTruthy();
    expect(screen.getByText(texts.webhookSecretTooShort)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("says the domain is invalid when the instance offers none", async () => {
    const { user, onSubmit } = renderForm({ availableDomains: [] });
    await fillValidValues(user);
    await user.click(screen.getByRole("button", { name: labels.submit }));
    expect(await screen.findByText(texts.domainInvalid)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("requires every allowed sender to be filled in with a valid address", async () => {
    const { user, onSubmit } = renderForm();
    await fillValidValues(user);
    await user.click(screen.getByRole("button", { name: labels.addAllowedOrigin }));
    await user.click(screen.getByRole("button", { name: labels.submit }));
    expect(await screen.findByText(texts.allowedOriginRequired)).toBeTruthy();
    await user.type(screen.getByLabelText(labels.allowedOrigin), "not-an-address");
    expect(await screen.findByText(texts.allowedOriginInvalid)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("submits the values normalized, allowed senders as a list", async () => {
    const { user, onSubmit } = renderForm();
    await fillValidValues(user);
    await user.click(screen.getByRole("button", { name: labels.addAllowedOrigin }));
    await user.type(screen.getByLabelText(labels.allowedOrigin), "Alice@Example.com");
    await user.click(screen.getByRole("button", { name: labels.submit }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit).toHaveBeenCalledWith({
      values: {
        username: "brave-otter-42",
        domain: "hookmail.test",
        webhookUrl: "https://example.com/hook",
        webhookSecret: "",
        allowedOrigins: [{ value: "alice@example.com" }],
        attachmentDelivery: "inline",
        authenticationPolicy: "none",
        spamThreshold: null,
      },
      removeWebhookSecret: false,
    });
  });

  it("submits the advanced options: attachments by link, DMARC required and a spam threshold", async () => {
    const { user, onSubmit } = renderForm();
    await fillValidValues(user);
    await user.click(screen.getByText(messages.emailCallbacks.form.advanced));
    const attachments = screen.getByRole("group", { name: messages.emailCallbacks.form.attachmentDelivery });
    await user.click(within(attachments).getByRole("radio", { name: messages.emailCallbacks.form.attachmentDeliveryUrl }));
    const authentication = screen.getByRole("group", { name: messages.emailCallbacks.form.authenticationPolicy });
    await user.click(within(authentication).getByRole("radio", { name: messages.emailCallbacks.form.authenticationPolicyDmarc }));
    await user.type(screen.getByLabelText(messages.emailCallbacks.form.spamThreshold), "7,5");
    await user.click(screen.getByRole("button", { name: labels.submit }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(vi.mocked(onSubmit).mock.calls[0]![0].values).toMatchObject({
      attachmentDelivery: "url",
      authenticationPolicy: "dmarc",
      spamThreshold: 7.5,
    });
  });

  it("refuses a spam threshold that is not a number from 0 to 1000, with the translated message", async () => {
    const { user, onSubmit } = renderForm();
    await fillValidValues(user);
    await user.click(screen.getByText(messages.emailCallbacks.form.advanced));
    await user.type(screen.getByLabelText(messages.emailCallbacks.form.spamThreshold), "lots");
    await user.click(screen.getByRole("button", { name: labels.submit }));
    expect(await screen.findByText(messages.emailCallbacks.form.validation.spamThresholdInvalid)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("ties the address label to the username input, and shows it in red while the address is wrong", async () => {
    const { user } = renderForm();
    const label = screen.getByText(messages.emailCallbacks.form.address, { selector: "label" });
    await user.click(label);
    expect(document.activeElement).toBe(screen.getByLabelText(labels.username));
    expect(label.getAttribute("data-error")).toBe("false");
    await user.click(screen.getByRole("button", { name: labels.submit }));
    await screen.findByText(texts.usernameRequired);
    expect(label.getAttribute("data-error")).toBe("true");
    expect(label.className).toContain("data-[error=true]:text-destructive");
  });

  it("fills in a random username and a random 42-character secret", async () => {
    const { user } = renderForm();
    await user.click(screen.getByRole("button", { name: labels.randomUsername }));
    await user.click(screen.getByRole("button", { name: labels.randomWebhookSecret }));
    expect((screen.getByLabelText(labels.username) as HTMLInputElement).value).toMatch(/^[a-z]+-[a-z]+-\d{1,3}$/);
    expect((screen.getByLabelText(labels.webhookSecret) as HTMLInputElement).value).toMatch(/^[A-Za-z0-9]{42}$/);
  });

  it("shows a taken username under the username field", async () => {
    const { user } = renderForm({
      onSubmit: async () => {
        throw new ApiError(409, "email_callback.already_exists", "An email with this username already exists.");
      },
    });
    await fillValidValues(user);
    await user.click(screen.getByRole("button", { name: labels.submit }));
    expect(await screen.findByText(texts.alreadyExists)).toBeTruthy();
  });

  it("shows a username the server refuses under the username field", async () => {
    const { user } = renderForm({
      onSubmit: async () => {
        throw new ApiError(400, "email_callback.username_not_allowed", "Not allowed.");
      },
    });
    await fillValidValues(user);
    await user.click(screen.getByRole("button", { name: labels.submit }));
    expect(await screen.findByText(texts.usernameNotAllowed)).toBeTruthy();
  });

  it("explains the plan limit above the submit button", async () => {
    const { user } = renderForm({
      onSubmit: async () => {
        throw new ApiError(403, "email_callbacks.limit_reached", "Limit reached.");
      },
    });
    await fillValidValues(user);
    await user.click(screen.getByRole("button", { name: labels.submit }));
    expect((await screen.findByRole("alert")).textContent).toBe(texts.limitReached);
  });

  it("hands a limit answer to the page, which says it in the instance's words, and shows no upgrade message itself", async () => {
    const onLimitReached = vi.fn();
    const { user } = renderForm({
      onLimitReached,
      onSubmit: async () => {
        throw new ApiError(403, "email_callbacks.limit_reached", "Limit reached.");
      },
    });
    await fillValidValues(user);
    await user.click(screen.getByRole("button", { name: labels.submit }));
    await waitFor(() => expect(onLimitReached).toHaveBeenCalledTimes(1));
    expect(screen.queryByText(texts.limitReached)).toBeNull();
  });

  it("cannot be sent while the plan's limit is reached", async () => {
    const { onSubmit } = renderForm({ isCreateBlocked: true });
    expect((screen.getByRole("button", { name: labels.submit }) as HTMLButtonElement).disabled).toBe(true);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("shows a generic message for any other error", async () => {
    const { user } = renderForm({
      onSubmit: async () => {
        throw new ApiError(500, "internal.error", "An internal error occurred.");
      },
    });
    await fillValidValues(user);
    await user.click(screen.getByRole("button", { name: labels.submit }));
    expect((await screen.findByRole("alert")).textContent).toBe(texts.unknown);
  });
});
