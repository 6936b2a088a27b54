// The in-app API reference (README: REST API): every call of the OpenAPI document served at
// /api/openapi.json, grouped by tag. The page's own words are translated; the document's summaries
// and descriptions are in English, like the API's messages.
import { FileJsonIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { PageHeading } from "@/modules/shared/components/page-heading";
import type { ReferenceSection } from "../api-reference.models";
import { OPENAPI_DOCUMENT_PATH, OPENAPI_TAG, type OpenApiTag } from "../openapi.constants";
import { ApiOperation } from "./api-operation";

/** Each tag's heading and description, as message keys (listed whole so that the catalogue test sees them). */
const TAG_MESSAGES = {
  [OPENAPI_TAG.EMAIL_CALLBACKS]: { title: "tags.emailCallbacks.title", description: "tags.emailCallbacks.description" },
  [OPENAPI_TAG.PROCESSINGS]: { title: "tags.processings.title", description: "tags.processings.description" },
  [OPENAPI_TAG.DOMAINS]: { title: "tags.domains.title", description: "tags.domains.description" },
  [OPENAPI_TAG.API_KEYS]: { title: "tags.apiKeys.title", description: "tags.apiKeys.description" },
  [OPENAPI_TAG.ACCOUNT]: { title: "tags.account.title", description: "tags.account.description" },
} as const satisfies Record<OpenApiTag, { title: string; description: string }>;

const ERROR_SHAPE = '{"error": {"code", "message"}}';

function inlineCode(chunks: ReactNode) {
  return <code className="bg-muted rounded px-[0.3em] py-0.5 font-mono text-[0.85em] break-words">{chunks}</code>;
}

export function ApiReference({ sections }: { sections: ReferenceSection[] }) {
  const t = useTranslations("apiReference");
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-10">
      <PageHeading back={{ href: "/", label: t("back") }} title={t("title")} description={t("description")}>
        <Button variant="outline" size="sm" asChild className="mt-2">
          <a href={OPENAPI_DOCUMENT_PATH} target="_blank" rel="noreferrer">
            <FileJsonIcon aria-hidden />
            {t("document")}
          </a>
        </Button>
      </PageHeading>

      <section aria-labelledby="api-reference-authentication" className="flex flex-col gap-3">
        <h2 id="api-reference-authentication" className="border-b pb-2 text-lg font-semibold tracking-tight">
          {t("authentication.title")}
        </h2>
        <ul className="text-muted-foreground flex list-disc flex-col gap-2 pl-5 text-sm leading-relaxed">
          <li>
            {t.rich("authentication.apiKey", {
              code: inlineCode,
              link: (chunks) => (
                <Link href="/api-keys" className="text-foreground underline underline-offset-4">
                  {chunks}
                </Link>
              ),
            })}
          </li>
          <li>{t.rich("authentication.session", { code: inlineCode })}</li>
          <li>{t.rich("authentication.errors", { shape: ERROR_SHAPE, code: inlineCode })}</li>
        </ul>
      </section>

      {sections.map((section) => (
        <section key={section.tag} aria-labelledby={`api-reference-${section.tag}`} className="flex flex-col gap-4">
          <div className="flex flex-col gap-1 border-b pb-2">
            <h2 id={`api-reference-${section.tag}`} className="text-lg font-semibold tracking-tight">
              {t(TAG_MESSAGES[section.tag].title)}
            </h2>
            <p className="text-muted-foreground text-sm">{t(TAG_MESSAGES[section.tag].description)}</p>
          </div>
          {section.operations.map((operation) => (
            <ApiOperation key={operation.id} operation={operation} />
          ))}
        </section>
      ))}
    </div>
  );
}
