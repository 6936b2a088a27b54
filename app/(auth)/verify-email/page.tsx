import { VerificationLinkNotice } from "@/modules/auth/components/verification-link-notice";
import { isVerifiedThroughLink } from "@/modules/auth/verified-link";
import { pageTitle } from "@/modules/i18n/page-title";
import { getServices } from "@/modules/server/services";

export const generateMetadata = pageTitle("verifyEmail");

type SearchParams = { error?: string | string[]; token?: string | string[] };

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { error, token } = await searchParams;
  const isVerified =
    error === undefined &&
    (await isVerifiedThroughLink({ auth: await getServices().auth(), token: typeof token === "string" ? token : undefined }));
  return <VerificationLinkNotice isVerified={isVerified} />;
}
