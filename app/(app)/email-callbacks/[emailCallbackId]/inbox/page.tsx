import { pageTitle } from "@/modules/i18n/page-title";
import { EmailCallbackInbox } from "@/modules/processings/components/email-callback-inbox";
import { readInboxView, searchParamsOf } from "@/modules/processings/inbox-view";
import { answerProcessingsPage } from "@/modules/processings/processings.answers";
import { FAILED_COUNT_PAGE, processingQueryKeys } from "@/modules/processings/processings.query-keys";
import { PageData } from "@/modules/server/page-data";

export const generateMetadata = pageTitle("inbox");

export default async function EmailCallbackInboxPage({
  params,
  searchParams,
}: {
  params: Promise<{ emailCallbackId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { emailCallbackId } = await params;
  // The view the inbox reads from the URL in the browser (use-inbox-view.ts), and the failed count of its toolbar.
  const pages = [readInboxView(searchParamsOf(await searchParams)), FAILED_COUNT_PAGE];
  return (
    <PageData
      queries={({ caller, services }) =>
        pages.map((page) => ({
          queryKey: processingQueryKeys.page(emailCallbackId, page),
          answer: () => answerProcessingsPage({ emailCallbackId, userId: caller.userId, page, services }),
        }))
      }
    >
      <EmailCallbackInbox emailCallbackId={emailCallbackId} />
    </PageData>
  );
}
