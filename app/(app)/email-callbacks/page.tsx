import { EmailCallbackList } from "@/modules/email-callbacks/components/email-callback-list";
import { answerEmailCallbackList } from "@/modules/email-callbacks/email-callbacks.answers";
import { emailCallbackQueryKeys } from "@/modules/email-callbacks/email-callbacks.query-keys";
import { pageTitle } from "@/modules/i18n/page-title";
import { PageData } from "@/modules/server/page-data";

export const generateMetadata = pageTitle("emails");

export default function EmailCallbacksPage() {
  return (
    <PageData
      queries={({ caller, services }) => [
        {
          queryKey: emailCallbackQueryKeys.list(),
          answer: () => answerEmailCallbackList({ owner: { userId: caller.userId, planId: caller.user.planId }, services }),
        },
      ]}
    >
      <EmailCallbackList />
    </PageData>
  );
}
