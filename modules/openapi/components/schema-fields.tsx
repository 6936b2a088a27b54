// The pieces of the API reference that show data: a list of fields (name, type, whether required,
// description), a JSON Schema in a collapsible code block, and text whose `backticks` are code.
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { CodeBlock } from "@/modules/shared/components/code-block";
import type { ReferenceContent, ReferenceField } from "../api-reference.models";

/** Text from the OpenAPI document, its `quoted` parts in code style. */
export function InlineMarkdown({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order.
          <code key={index} className="bg-muted rounded px-[0.3em] py-0.5 font-mono text-[0.85em] break-words">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** A description from the OpenAPI document in an element of its own (a span unless told); nothing when there is none. */
export function MarkdownDescription({
  text,
  className,
  as: Element = "span",
}: {
  text: string | undefined;
  className: string;
  as?: "p" | "span";
}) {
  if (!text) return null;
  return (
    <Element className={className}>
      <InlineMarkdown text={text} />
    </Element>
  );
}

/**
 * Fields of what a client sends (`request`: the required ones are marked) or receives (`response`:
 * the ones that may be left out are marked, every other is always there).
 */
export function FieldList({
  fields,
  label,
  direction,
}: {
  fields: (ReferenceField & { in?: string })[];
  label: string;
  direction: "request" | "response";
}) {
  const t = useTranslations("apiReference");
  const locations: Record<string, string> = { path: t("in.path"), query: t("in.query"), header: t("in.header") };
  return (
    <dl aria-label={label} className="divide-y rounded-md border text-sm">
      {fields.map((field) => (
        <div key={`${field.in ?? ""}${field.name}`} className="flex flex-col gap-1 px-3 py-2 sm:flex-row sm:gap-4">
          <dt className="font-mono text-xs font-medium break-all sm:w-2/5 sm:shrink-0">{field.name}</dt>
          <dd className="flex min-w-0 flex-col gap-1">
            <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
              <span className="text-muted-foreground font-mono break-words">{field.type}</span>
              {field.in ? <span className="text-muted-foreground">{locations[field.in] ?? field.in}</span> : null}
              {direction === "request" && field.required ? (
                <span className="text-destructive font-medium">{t("required")}</span>
              ) : null}
              {direction === "response" && !field.required ? <span className="font-medium">{t("mayBeAbsent")}</span> : null}
            </span>
            <MarkdownDescription text={field.description} className="text-muted-foreground leading-relaxed" />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A body or an answer: its media type, what it is, its fields, and its JSON Schema on demand. */
export function ContentView({
  content,
  label,
  direction,
}: {
  content: ReferenceContent;
  label: string;
  direction: "request" | "response";
}) {
  const t = useTranslations("apiReference");
  const json = `${JSON.stringify(content.schema, null, 2)}\n`;
  const hasFields = content.fields.length > 0;
  return (
    <div className="flex flex-col gap-2">
      <p className="flex flex-wrap items-baseline gap-x-2 text-xs">
        <span className="font-mono font-medium">{content.mediaType}</span>
        {hasFields ? null : <MarkdownDescription text={content.description} className="text-muted-foreground" />}
      </p>
      {hasFields ? <FieldList fields={content.fields} label={label} direction={direction} /> : null}
      {hasFields ? (
        <details className="group">
          <summary className="text-muted-foreground hover:text-foreground w-fit cursor-pointer text-xs">
            {t("showSchema")}
          </summary>
          <div className="mt-2">
            <CodeBlock code={json} codeLanguage="JSON Schema" copyLabel={t("copySchema")} className="max-h-96 overflow-auto" />
          </div>
        </details>
      ) : null}
    </div>
  );
}

/** A titled part of an operation: parameters, body, answer, errors. */
export function OperationPart({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2">
      <h4 className="text-muted-foreground text-xs font-semibold tracking-wide uppercase">{title}</h4>
      {children}
    </div>
  );
}
