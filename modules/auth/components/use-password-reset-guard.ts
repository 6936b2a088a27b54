"use client";
// The password-reset pages send the visitor to /login when the instance turns password reset off.
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useAppConfig } from "@/modules/config/components/config-provider";

/** Answers whether password reset is enabled (the page renders nothing while it redirects). */
export function usePasswordResetGuard(): boolean {
  const router = useRouter();
  const { isPasswordResetEnabled } = useAppConfig().auth;
  useEffect(() => {
    if (!isPasswordResetEnabled) router.replace("/login");
  }, [isPasswordResetEnabled, router]);
  return isPasswordResetEnabled;
}
