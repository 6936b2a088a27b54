// Pure functions of email callbacks: the address, the masked secret, the API shape.
import type { ATTACHMENT_DELIVERIES, AUTHENTICATION_POLICIES } from "./email-callbacks.constants";
export type EmailCallbackRecord = {
  id: string;
  userId: string;
  domain: string;
  username: string;
  webhookUrl: string;
  webhookSecret: string | null;
  allowedOrigins: string[];
  isEnabled: boolean;
  attachmentDelivery: AttachmentDelivery;
  authenticationPolicy: AuthenticationPolicy;
  spamThreshold: number | null;
  createdAt: Date;
  updatedAt: Date;
};

export type AttachmentDelivery = (typeof ATTACHMENT_DELIVERIES)[number];
export type AuthenticationPolicy = (typeof AUTHENTICATION_POLICIES)[number];

export type ApiEmailCallback = {
  id: string;
  domain: string;
  username: string;
  address: string;
  webhookUrl: string;
  hasWebhookSecret: boolean;
  /** The secret with all but its last 4 characters hidden, or null; the secret itself is never returned. */
  maskedWebhookSecret: string | null;
  allowedOrigins: string[];
  isEnabled: boolean;
  attachmentDelivery: AttachmentDelivery;
  authenticationPolicy: AuthenticationPolicy;
  spamThreshold: number | null;
  createdAt: string;
  updatedAt: string;
};

export function formatAddress({ username, domain }: { username: string; domain: string }): string {
  return `${username}@${domain}`;
}

export function maskSecret(secret: string): string {
  return `${"•".repeat(8)}${secret.slice(-4)}`;
}

export function formatEmailCallbackForApi(callback: EmailCallbackRecord): ApiEmailCallback {
  return {
    id: callback.id,
    domain: callback.domain,
    username: callback.username,
    address: formatAddress(callback),
    webhookUrl: callback.webhookUrl,
    hasWebhookSecret: Boolean(callback.webhookSecret),
    maskedWebhookSecret: callback.webhookSecret ? maskSecret(callback.webhookSecret) : null,
    allowedOrigins: callback.allowedOrigins,
    isEnabled: callback.isEnabled,
    attachmentDelivery: callback.attachmentDelivery,
    authenticationPolicy: callback.authenticationPolicy,
    spamThreshold: callback.spamThreshold,
    createdAt: callback.createdAt.toISOString(),
    updatedAt: callback.updatedAt.toISOString(),
  };
}
