import { redirect } from "next/navigation";
import { InvalidResetLink } from "@/modules/auth/components/invalid-reset-link";
import { ResetPasswordForm } from "@/modules/auth/components/reset-password-form";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("resetPassword");

type SearchParams = { token?: string | string[]; error?: string | string[] };

/** A reset link better-auth refused comes back with ?error= and no token. */
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { token, error } = await searchParams;
  if (typeof token === "string" && token !== "") return <ResetPasswordForm token={token} />;
  if (typeof error === "string" && error !== "") return <InvalidResetLink />;
  redirect("/login");
}
