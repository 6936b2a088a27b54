// The email callback form's starting values: empty for a new address, the address's own when
// editing (its secret is never known: the field starts empty).
import type { ApiEmailCallback } from "../email-callbacks.models";
import type { EmailCallbackFormValues } from "../email-callbacks.schemas";

export function getEmptyEmailCallbackFormValues(availableDomains: string[]): EmailCallbackFormValues {
  return {
    username: "",
    domain: availableDomains[0] ?? "",
    webhookUrl: "",
    webhookSecret: "",
    allowedOrigins: [],
    attachmentDelivery: "inline",
    authenticationPolicy: "none",
    spamThreshold: null,
  };
}

/** The secret itself is never known: the field starts empty, the masked secret as its placeholder. */
export function getEmailCallbackFormValues(emailCallback: ApiEmailCallback): EmailCallbackFormValues {
  return {
    username: emailCallback.username,
    domain: emailCallback.domain,
    webhookUrl: emailCallback.webhookUrl,
    webhookSecret: "",
    allowedOrigins: emailCallback.allowedOrigins.map((value) => ({ value })),
    attachmentDelivery: emailCallback.attachmentDelivery,
    authenticationPolicy: emailCallback.authenticationPolicy,
    spamThreshold: emailCallback.spamThreshold,
  };
}

/** Whether the address has changed any advanced option (the section then starts open). */
export const hasNonDefaultMailOptions = (values: EmailCallbackFormValues) =>
  values.attachmentDelivery !== "inline" || values.authenticationPolicy !== "none" || values.spamThreshold != null;
