"use client";
// The one translator of API errors: an error code of the API (modules/shared/errors/error-codes.ts)
// or a network failure becomes its message under `apiErrors` in the user's language, never the
// server's English message; an unknown code becomes the generic one.
import { useTranslations } from "next-intl";
import { ApiError } from "./api-client";

export function useApiErrorMessage(): (error: unknown) => string {
  const t = useTranslations("apiErrors");
  return (error) => {
    // A code is a key of `apiErrors` only when it is one of ours; t.has answers that at run time.
    const key = (error instanceof ApiError ? error.code : "unknown") as Parameters<typeof t>[0];
    return t.has(key) ? t(key) : t("unknown");
  };
}
