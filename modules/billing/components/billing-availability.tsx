"use client";
// Whether this instance has billing at all, known from the server's configuration when the page is
// rendered: with billing off, the client never asks for the plans (no request answered 404).
import { createContext, type ReactNode, useContext } from "react";

const BillingAvailability = createContext<boolean>(true);

export function BillingAvailabilityProvider({ isEnabled, children }: { isEnabled: boolean; children: ReactNode }) {
  return <BillingAvailability.Provider value={isEnabled}>{children}</BillingAvailability.Provider>;
}

/** False when the instance runs without billing; true otherwise (the plans are then fetched). */
export function useIsBillingAvailable(): boolean {
  return useContext(BillingAvailability);
}
