"use client";
// The address waiting for verification, kept in this tab's sessionStorage by the login and
// registration forms when they send the visitor to /email-validation-required, so that page can
// send the verification mail again without asking for it (and without the address in the URL).
import { useSyncExternalStore } from "react";

const STORAGE_KEY = "hookmail.pending-verification-email";

export function rememberPendingVerificationEmail(email: string) {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, email.trim());
  } catch {
    // Storage refused (private mode, quota): the page then asks for the address.
  }
}

function readPendingVerificationEmail(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY) || null;
  } catch {
    return null;
  }
}

const subscribeToNothing = () => () => {};

/** The remembered address; null when there is none; undefined while rendering on the server. */
export function usePendingVerificationEmail(): string | null | undefined {
  return useSyncExternalStore(subscribeToNothing, readPendingVerificationEmail, () => undefined);
}
