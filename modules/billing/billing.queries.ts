// Query keys, fetchers and hooks of billing: the plans offered, the
// checkout session, its confirmation and the customer portal. Billing switched off on the server
// (404 billing.not_configured) reads as `null`: every billing control is then hidden.
import { useMutation, useQuery } from "@tanstack/react-query";
import { PLAN_ID } from "@/modules/plans/plans.constants";
import { ApiError, apiFetch } from "@/modules/shared/api/api-client";
import { useIsBillingAvailable } from "./components/billing-availability";

export const BILLING_NOT_CONFIGURED_CODE = "billing.not_configured";
export const CHECKOUT_PLAN_ID = PLAN_ID.PRO;

export type BillingPlan = { maxEmails: number; retentionDays: number; priceUsdMonthly: number };
export type BillingConfig = { isEnabled: true; plans: { free: BillingPlan; pro: BillingPlan } };
export type CheckoutSessionStatus = { isPaid: boolean; status: string };

export const billingQueryKeys = {
  all: ["billing"] as const,
  config: () => [...billingQueryKeys.all, "config"] as const,
  checkoutSession: (sessionId: string) => [...billingQueryKeys.all, "checkout-session", sessionId] as const,
};

/** The billing config, or null when billing is not configured on this instance. */
export async function fetchBillingConfig(): Promise<BillingConfig | null> {
  try {
    return await apiFetch<BillingConfig>("/api/payments/config");
  } catch (error) {
    if (error instanceof ApiError && (error.code === BILLING_NOT_CONFIGURED_CODE || error.status === 404)) return null;
    throw error;
  }
}

export async function createCheckoutSession({ planId }: { planId: typeof CHECKOUT_PLAN_ID }): Promise<{ checkoutUrl: string }> {
  return apiFetch<{ checkoutUrl: string }>("/api/payments/checkout-session", { method: "POST", body: { planId } });
}

export async function fetchCheckoutSession({ sessionId }: { sessionId: string }): Promise<CheckoutSessionStatus> {
  return apiFetch<CheckoutSessionStatus>(`/api/payments/checkout-session/${encodeURIComponent(sessionId)}`);
}

export async function fetchCustomerPortalUrl(): Promise<{ portalUrl: string }> {
  return apiFetch<{ portalUrl: string }>("/api/payments/customer-portal");
}

export function useBillingConfigQuery() {
  const isAvailable = useIsBillingAvailable();
  return useQuery({
    queryKey: billingQueryKeys.config(),
    queryFn: fetchBillingConfig,
    staleTime: Infinity,
    enabled: isAvailable,
  });
}

/** True only once the server has said billing is on; false while loading, on error, or when off. */
export function useIsBillingEnabled() {
  const { data } = useBillingConfigQuery();
  return Boolean(data?.isEnabled);
}

export function useCheckoutSessionQuery(sessionId: string | null) {
  return useQuery({
    queryKey: billingQueryKeys.checkoutSession(sessionId ?? ""),
    queryFn: () => fetchCheckoutSession({ sessionId: sessionId ?? "" }),
    enabled: Boolean(sessionId),
  });
}

export function useCreateCheckoutSessionMutation() {
  return useMutation({ mutationFn: createCheckoutSession });
}
