// Errors of API keys, with the codes of the shared table (error-codes.ts).
import { AppError, defineError } from "@/modules/shared/errors/app-error";
import { MAX_API_KEYS_PER_USER } from "./api-keys.constants";

export const createApiKeyNotFoundError = defineError("api_key.not_found", "The API key was not found.");

export const createApiKeysLimitReachedError = () =>
  new AppError({
    code: "api_keys.limit_reached",
    message: `You have reached the maximum of ${MAX_API_KEYS_PER_USER} API keys; delete one to create another.`,
  });

/** An API key may not manage API keys (or any other session-only call). */
export const createApiKeysSessionRequiredError = defineError(
  "api_keys.session_required",
  "This call needs a signed-in session, not an API key.",
);
