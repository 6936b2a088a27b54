"use client";
// "Send test mail" on an email callback's detail: a sample message to the address goes through the
// same pipeline as real mail, so it shows in the inbox (as not processed when the address is
// disabled or its allowed senders leave test@<domain> out, like real mail would be).
import { SendIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import { useSendTestMail } from "../processings.queries";

export function SendTestMailButton({ emailCallbackId }: { emailCallbackId: string }) {
  const t = useTranslations("processing.testMail");
  const toast = useToast();
  const sendTestMail = useSendTestMail(emailCallbackId);

  async function send() {
    try {
      await sendTestMail.mutateAsync();
    } catch {
      toast.error(t("error"));
      return;
    }
    toast.success(t("sent"));
  }

  return (
    <Button variant="outline" disabled={sendTestMail.isPending} onClick={() => void send()}>
      <SendIcon aria-hidden />
      {t("send")}
    </Button>
  );
}
