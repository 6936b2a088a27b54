"use client";
// /checkout-success: confirms the payment of the Checkout Session named by ?sessionId, then goes
// home after 2 s. Without a sessionId, or when the confirmation fails, it says so with a way home.
import { CircleCheckIcon, CircleHelpIcon, CircleXIcon } from "lucide-react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useCheckoutSessionQuery } from "../billing.queries";
import { CheckoutNotice } from "./checkout-notice";

export const CHECKOUT_REDIRECT_DELAY_MS = 2000;

export function CheckoutSuccess() {
  const t = useTranslations("checkout.success");
  const router = useRouter();
  const sessionId = useSearchParams().get("sessionId");
  const { data, isError, isPending } = useCheckoutSessionQuery(sessionId);
  const isPaid = data?.isPaid === true;
  const hasFailed = isError || (data !== undefined && !isPaid);

  useEffect(() => {
    if (!isPaid) return;
    const timeout = window.setTimeout(() => router.push("/"), CHECKOUT_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timeout);
  }, [isPaid, router]);

  const goHome = (
    <Button asChild>
      <Link href="/">{t("goHome")}</Link>
    </Button>
  );
  if (!sessionId) {
    return (
      <CheckoutNotice
        icon={<CircleHelpIcon className="text-muted-foreground size-10" aria-hidden />}
        title={t("missingSession")}
        description={t("missingSessionDescription")}
      >
        {goHome}
      </CheckoutNotice>
    );
  }
  if (hasFailed) {
    return (
      <CheckoutNotice icon={<CircleXIcon className="text-destructive size-10" aria-hidden />} title={t("error")}>
        {goHome}
      </CheckoutNotice>
    );
  }
  if (isPending) {
    return <CheckoutNotice icon={<Spinner className="size-10" aria-hidden />} title={t("processing")} />;
  }
  return (
    <CheckoutNotice
      icon={<CircleCheckIcon className="size-10 text-emerald-600" aria-hidden />}
      title={t("title")}
      description={t("redirecting")}
    />
  );
}
