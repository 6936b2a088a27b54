import { VerificationLinkNotice } from "@/modules/auth/components/verification-link-notice";
import { pageTitle } from "@/modules/i18n/page-title";

export const generateMetadata = pageTitle("verifyEmail");

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<{ error?: string | string[] }> }) {
  const { error } = await searchParams;
  return <VerificationLinkNotice hasError={error !== undefined && error !== ""} />;
}
