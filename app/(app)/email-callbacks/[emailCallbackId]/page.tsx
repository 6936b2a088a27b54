import { redirect } from "next/navigation";

export default async function EmailCallbackPage({ params }: { params: Promise<{ emailCallbackId: string }> }) {
  const { emailCallbackId } = await params;
  redirect(`/email-callbacks/${encodeURIComponent(emailCallbackId)}/inbox`);
}
