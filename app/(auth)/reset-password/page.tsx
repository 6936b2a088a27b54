import { redirect } from "next/navigation";
import { ResetPasswordForm } from "@/modules/auth/components/reset-password-form";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("resetPassword");

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  if (typeof token !== "string" || token === "") redirect("/login");
  return <ResetPasswordForm token={token} />;
}
