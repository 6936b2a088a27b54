// Random webhook secrets for the "random" button of the email form:
// 42 alphanumeric characters from the platform's cryptographic random source, without modulo bias.
import { GENERATED_WEBHOOK_SECRET_LENGTH } from "./email-callbacks.constants";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** The largest multiple of the alphabet's size a byte can hold: bytes at or above it are redrawn. */
const UNBIASED_BYTE_LIMIT = 256 - (256 % ALPHABET.length);

export function generateWebhookSecret(length: number = GENERATED_WEBHOOK_SECRET_LENGTH): string {
  let secret = "";
  while (secret.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      secret += ALPHABET[byte % ALPHABET.length];
      if (secret.length === length) break;
    }
  }
  return secret;
}
