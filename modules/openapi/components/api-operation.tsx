// One call of the API reference: its method and path, who may make it, its summary, then its
// parameters, body, answer (and the events of a stream) and the error codes it answers by status.
import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/modules/shared/cn";
import type { ReferenceOperation } from "../api-reference.models";
import type { HttpMethod } from "../openapi.operations";
import { ContentView, FieldList, InlineMarkdown, MarkdownDescription, OperationPart } from "./schema-fields";

const METHOD_STYLES: Record<HttpMethod, string> = {
  get: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  post: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  put: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  patch: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  delete: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

export function ApiOperation({ operation }: { operation: ReferenceOperation }) {
  const t = useTranslations("apiReference");
  const headingId = `operation-${operation.id}`;
  const { success } = operation;
  return (
    <article id={operation.id} aria-labelledby={headingId} className="flex scroll-mt-20 flex-col gap-4 rounded-lg border p-4">
      <div className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <span
            className={cn("rounded px-1.5 py-0.5 font-mono text-xs font-semibold uppercase", METHOD_STYLES[operation.method])}
          >
            {operation.method}
          </span>
          <code className="min-w-0 font-mono text-sm break-all">{operation.path}</code>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id={headingId} className="font-semibold">
            {operation.summary}
          </h3>
          <Badge variant={operation.access === "session" ? "secondary" : "outline"}>
            {operation.access === "session" ? t("access.session") : t("access.sessionOrKey")}
          </Badge>
        </div>
        <MarkdownDescription as="p" text={operation.description} className="text-muted-foreground text-sm leading-relaxed" />
      </div>

      {operation.parameters.length > 0 ? (
        <OperationPart title={t("parameters")}>
          <FieldList
            fields={operation.parameters}
            label={t("parametersOf", { summary: operation.summary })}
            direction="request"
          />
        </OperationPart>
      ) : null}

      {operation.requestBody ? (
        <OperationPart title={operation.requestBody.required ? t("requestBody") : t("optionalRequestBody")}>
          {operation.requestBody.contents.map((content) => (
            <ContentView
              key={content.mediaType}
              content={content}
              label={t("requestBodyOf", { summary: operation.summary })}
              direction="request"
            />
          ))}
        </OperationPart>
      ) : null}

      <OperationPart title={t("response")}>
        <p className="flex flex-wrap items-baseline gap-2 text-sm">
          <Badge variant="success" className="font-mono">
            {success.status}
          </Badge>
          <span className="text-muted-foreground">
            <InlineMarkdown text={success.description} />
          </span>
        </p>
        {success.contents.map((content) => (
          <ContentView
            key={content.mediaType}
            content={content}
            label={t("responseOf", { summary: operation.summary })}
            direction="response"
          />
        ))}
        {operation.events.map((event) => (
          <div key={event.name} className="flex flex-col gap-2">
            <p className="text-xs">
              {t.rich("event", { name: event.name, code: (chunks) => <code className="font-mono font-medium">{chunks}</code> })}
            </p>
            <FieldList fields={event.fields} label={t("eventOf", { name: event.name })} direction="response" />
          </div>
        ))}
      </OperationPart>

      <OperationPart title={t("errors")}>
        <ul className="divide-y rounded-md border text-sm" aria-label={t("errorsOf", { summary: operation.summary })}>
          {operation.errors.map((error) => (
            <li key={error.status} className="flex items-start gap-3 px-3 py-2">
              <Badge variant="outline" className="font-mono tabular-nums">
                {error.status}
              </Badge>
              <span className="flex min-w-0 flex-wrap gap-x-3 gap-y-1 font-mono text-xs leading-5 break-all">
                {error.codes.map((code) => (
                  <span key={code}>{code}</span>
                ))}
              </span>
            </li>
          ))}
        </ul>
      </OperationPart>
    </article>
  );
}
