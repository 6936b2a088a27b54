"use client";
// Copies an email address, then confirms with the toast "Email address copied to clipboard".
import { useTranslations } from "next-intl";
import type { ComponentProps } from "react";
import { CopyButton } from "@/modules/shared/components/copy-button";
import { useToast } from "@/modules/shared/components/toasts-on-demand";

export function CopyAddressButton({
  address,
  variant,
  size,
  className,
}: {
  address: string;
  variant?: ComponentProps<typeof CopyButton>["variant"];
  size?: ComponentProps<typeof CopyButton>["size"];
  className?: string;
}) {
  const t = useTranslations("emailCallbacks.address");
  const toast = useToast();
  return (
    <CopyButton
      value={address}
      label={t("copy")}
      onCopied={() => toast.success(t("copied"))}
      variant={variant}
      size={size}
      className={className}
    />
  );
}
