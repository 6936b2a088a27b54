"use client";
// The auth service answers in English: the error codes we know are shown in the user's language,
// any other error as the server wrote it, and `fallback` when it wrote nothing.
import { useTranslations } from "next-intl";

export type AuthError = { code?: string; message?: string; status?: number };

const TOO_MANY_REQUESTS_STATUS = 429;

export function useAuthErrorMessage(fallback: string) {
  const t = useTranslations();
  return (error: AuthError): string => {
    const code = error.status === TOO_MANY_REQUESTS_STATUS ? "TOO_MANY_REQUESTS" : error.code;
    const key = `authErrors.${code}`;
    if (code && t.has(key as never)) return t(key as never);
    return error.message || fallback;
  };
}
