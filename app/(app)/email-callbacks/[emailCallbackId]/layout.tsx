import type { ReactNode } from "react";
import { EmailCallbackDetailLayout } from "@/modules/email-callbacks/components/email-callback-detail-layout";

export default async function EmailCallbackLayout({
  params,
  children,
}: {
  params: Promise<{ emailCallbackId: string }>;
  children: ReactNode;
}) {
  const { emailCallbackId } = await params;
  return <EmailCallbackDetailLayout emailCallbackId={emailCallbackId}>{children}</EmailCallbackDetailLayout>;
}
