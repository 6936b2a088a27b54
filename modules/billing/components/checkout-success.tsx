"use client";
// /checkout-success: confirms the payment of the Checkout Session
// named by ?sessionId, then goes home after 2 s. Without a sessionId it only logs an error.
import { CircleCheckIcon, CircleXIcon } from "lucide-react";
import { useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
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
    if (!sessionId) console.error("checkout-success: the sessionId query parameter is missing");
  }, [sessionId]);

  useEffect(() => {
    if (!isPaid) return;
    const timeout = window.setTimeout(() => router.push("/"), CHECKOUT_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timeout);
  }, [isPaid, router]);

  if (!sessionId) return null;
  if (hasFailed) {
    return <CheckoutNotice icon={<CircleXIcon className="text-destructive size-10" aria-hidden />} title={t("error")} />;
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
