"use client";
// /checkout-cancel: the payment was canceled; back home after 2 s, or at once
// through the link.
import { CircleSlashIcon } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { CheckoutNotice } from "./checkout-notice";
import { CHECKOUT_REDIRECT_DELAY_MS } from "./checkout-success";

export function CheckoutCancel() {
  const t = useTranslations("checkout.cancel");
  const router = useRouter();

  useEffect(() => {
    const timeout = window.setTimeout(() => router.push("/"), CHECKOUT_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timeout);
  }, [router]);

  return (
    <CheckoutNotice
      icon={<CircleSlashIcon className="text-muted-foreground size-10" aria-hidden />}
      title={t("title")}
      description={t("description")}
    >
      <Button asChild variant="outline">
        <Link href="/">{t("goHome")}</Link>
      </Button>
    </CheckoutNotice>
  );
}
