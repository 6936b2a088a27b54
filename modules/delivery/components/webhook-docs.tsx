"use client";
import { FileJsonIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { CodeBlock } from "@/modules/shared/components/code-block";
// The webhook documentation page (docs/webhooks.md shown in the app): the request headers, an
// example body with a link to its JSON Schema, what the checks, flags and content links of the body
// mean and the per-address options, the delivery and retry rules, and the signature
// verification snippets in Node.js, Python and Go. Prose is translated; code stays as written.
import { PageHeading } from "@/modules/shared/components/page-heading";
import {
  WEBHOOK_DOCS_VERIFY_ANCHOR,
  WEBHOOK_EXAMPLE_BODY,
  WEBHOOK_REQUEST_HEADERS,
  WEBHOOK_SCHEMA_PATH,
  WEBHOOK_SIGNATURE_FORMULA,
  WEBHOOK_VERIFICATION_SNIPPETS,
} from "../webhook-docs.constants";

const STANDARD_WEBHOOKS_URL = "https://www.standardwebhooks.com/";
const DELIVERY_RULES = ["success", "retry", "failure", "recorded", "privateTargets"] as const;
const FIELD_NOTES = ["raw", "authentication", "spam", "flags", "thread", "reply", "links", "options"] as const;

function inlineCode(chunks: ReactNode) {
  return <code className="bg-muted rounded px-[0.3em] py-0.5 font-mono text-[0.85em] break-words">{chunks}</code>;
}

export function WebhookDocs() {
  const t = useTranslations("webhookDocs");
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-10">
      <PageHeading back={{ href: "/", label: t("back") }} title={t("title")} description={t("description")} />
      <RequestSection />
      <BodySection />
      <FieldsSection />
      <DeliverySection />
      <VerifySection />
    </div>
  );
}

function Section({ id, title, action, children }: { id: string; title: string; action?: ReactNode; children: ReactNode }) {
  const headingId = `webhook-docs-${id}`;
  return (
    <section id={id} aria-labelledby={headingId} className="flex scroll-mt-20 flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b pb-2">
        <h2 id={headingId} className="text-lg font-semibold tracking-tight">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

function RequestSection() {
  const t = useTranslations("webhookDocs.request");
  return (
    <Section id="request" title={t("title")}>
      <div className="rounded-lg border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead className="px-3">{t("headerColumn")}</TableHead>
              <TableHead className="hidden px-3 sm:table-cell">{t("exampleColumn")}</TableHead>
              <TableHead className="px-3">{t("descriptionColumn")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {WEBHOOK_REQUEST_HEADERS.map((header) => (
              <TableRow key={header.name}>
                <TableCell className="px-3 align-top font-mono text-xs font-medium">
                  {header.name}
                  {/* On narrow screens the example goes under the name rather than in a column of its own. */}
                  <div className="text-muted-foreground mt-1 font-normal sm:hidden">{header.example}</div>
                </TableCell>
                <TableCell className="text-muted-foreground hidden px-3 align-top font-mono text-xs sm:table-cell">
                  {header.example}
                </TableCell>
                <TableCell className="px-3 align-top whitespace-normal">{t(`headers.${header.descriptionKey}`)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <p className="text-muted-foreground text-sm leading-relaxed">
        {t.rich("signature", {
          formula: WEBHOOK_SIGNATURE_FORMULA,
          code: inlineCode,
          link: (chunks) => (
            <a
              href={STANDARD_WEBHOOKS_URL}
              target="_blank"
              rel="noreferrer"
              className="text-foreground underline underline-offset-4"
            >
              {chunks}
            </a>
          ),
        })}
      </p>
    </Section>
  );
}

function BodySection() {
  const t = useTranslations("webhookDocs.body");
  return (
    <Section
      id="body"
      title={t("title")}
      action={
        <Button variant="outline" size="sm" asChild>
          <a href={WEBHOOK_SCHEMA_PATH} target="_blank" rel="noreferrer">
            <FileJsonIcon aria-hidden />
            {t("schema")}
          </a>
        </Button>
      }
    >
      <p className="text-muted-foreground text-sm leading-relaxed">{t("description")}</p>
      <CodeBlock code={WEBHOOK_EXAMPLE_BODY} codeLanguage="JSON" copyLabel={t("copy")} />
      <p className="text-muted-foreground text-sm leading-relaxed">{t.rich("notes", { code: inlineCode })}</p>
    </Section>
  );
}

function FieldsSection() {
  const t = useTranslations("webhookDocs.fields");
  return (
    <Section id="fields" title={t("title")}>
      <ul className="text-muted-foreground flex list-disc flex-col gap-2 pl-5 text-sm leading-relaxed">
        {FIELD_NOTES.map((note) => (
          <li key={note}>{t.rich(`items.${note}`, { code: inlineCode })}</li>
        ))}
      </ul>
    </Section>
  );
}

function DeliverySection() {
  const t = useTranslations("webhookDocs.delivery");
  return (
    <Section id="delivery" title={t("title")}>
      <ul className="text-muted-foreground flex list-disc flex-col gap-2 pl-5 text-sm leading-relaxed">
        {DELIVERY_RULES.map((rule) => (
          <li key={rule}>{t.rich(`rules.${rule}`, { code: inlineCode })}</li>
        ))}
      </ul>
      <p className="text-sm leading-relaxed">{t.rich("advice", { code: inlineCode })}</p>
    </Section>
  );
}

function VerifySection() {
  const t = useTranslations("webhookDocs.verify");
  return (
    <Section id={WEBHOOK_DOCS_VERIFY_ANCHOR} title={t("title")}>
      <p className="text-muted-foreground text-sm leading-relaxed">{t("description")}</p>
      <Tabs defaultValue={WEBHOOK_VERIFICATION_SNIPPETS[0]?.language}>
        <TabsList aria-label={t("languages")}>
          {WEBHOOK_VERIFICATION_SNIPPETS.map((snippet) => (
            <TabsTrigger key={snippet.language} value={snippet.language} className="px-4">
              {snippet.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {WEBHOOK_VERIFICATION_SNIPPETS.map((snippet) => (
          <TabsContent key={snippet.language} value={snippet.language}>
            <CodeBlock
              code={snippet.code}
              codeLanguage={snippet.codeLanguage}
              copyLabel={t("copy", { language: snippet.label })}
            />
          </TabsContent>
        ))}
      </Tabs>
    </Section>
  );
}
