"use client";
// The parts of a mail on its message page, read from the webhook body sent: the HTML in a sandboxed
// frame (no scripts, no same-origin, remote images blocked until asked for), the headers, the
// attachments to download, and the checks (authentication verdicts, spam, flags).
import { DownloadIcon, ImageIcon } from "lucide-react";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { MailAuthentication } from "@/modules/mail-checks/mail-auth.models";
import { attachmentPath } from "../processings.queries";

/** What the message page reads of a webhook body (docs/webhooks.md). */
export type SentMail = {
  text?: string;
  html?: string;
  headers?: { name: string; value: string }[];
  attachments?: { filename: string; contentType: string; size: number }[];
  authentication?: MailAuthentication | null;
  spam?: { score: number; action: string; isSpam: boolean } | null;
  flags?: { isAutoReply: boolean; isBounce: boolean; isMailingList: boolean };
};

const Empty = ({ children }: { children: string }) => (
  <p className="text-muted-foreground rounded-lg border border-dashed px-4 py-8 text-center text-sm">{children}</p>
);

/**
 * The frame's own policy: no script, no request, unless the user lets remote images load (http: and
 * https: alike). A srcdoc frame is also held to the page's policy, whose img-src allows both.
 */
function framePolicy(areImagesAllowed: boolean) {
  const images = areImagesAllowed ? "data: cid: https: http:" : "data: cid:";
  return `default-src 'none'; style-src 'unsafe-inline'; img-src ${images}; font-src data:`;
}

export function MailHtml({ html }: { html: string | undefined }) {
  const t = useTranslations("processing.message");
  const [areImagesAllowed, setAreImagesAllowed] = useState(false);
  if (!html) return <Empty>{t("noHtml")}</Empty>;
  const document = `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${framePolicy(areImagesAllowed)}">${html}`;
  return (
    <div className="flex flex-col gap-3">
      {areImagesAllowed ? null : (
        <div className="text-muted-foreground flex flex-wrap items-center gap-3 text-sm">
          <span>{t("imagesBlocked")}</span>
          <Button variant="outline" size="sm" onClick={() => setAreImagesAllowed(true)}>
            <ImageIcon aria-hidden />
            {t("loadImages")}
          </Button>
        </div>
      )}
      <iframe title={t("htmlFrame")} sandbox="" srcDoc={document} className="h-[32rem] w-full rounded-lg border bg-white" />
    </div>
  );
}

export function MailHeaders({ headers }: { headers: SentMail["headers"] }) {
  const t = useTranslations("processing.message");
  return (
    <div className="overflow-x-auto rounded-lg border">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead className="w-48">{t("header")}</TableHead>
            <TableHead>{t("value")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {/* A mail's header lines have no id of their own, and may repeat: their place is their key. */}
          {(headers ?? []).map((header, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is the mail's, fixed, and lines may repeat
            <TableRow key={index}>
              <TableCell className="align-top font-mono text-xs">{header.name}</TableCell>
              <TableCell className="font-mono text-xs break-all whitespace-normal">{header.value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** A size in bytes, kB or MB in the page's language ("512 bytes", "22.7 MB"; "22,7 Mo" in French). */
export function formatSize(bytes: number, locale: string) {
  const [value, unit, unitDisplay] =
    bytes < 1024
      ? [bytes, "byte", "long"]
      : bytes < 1024 * 1024
        ? [bytes / 1024, "kilobyte", "short"]
        : [bytes / 1024 / 1024, "megabyte", "short"];
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit,
    unitDisplay: unitDisplay as "long" | "short",
    maximumFractionDigits: 1,
  }).format(value);
}

export function MailAttachments({
  emailCallbackId,
  processingId,
  attachments,
}: {
  emailCallbackId: string;
  processingId: string;
  attachments: SentMail["attachments"];
}) {
  const t = useTranslations("processing.message");
  const locale = useLocale();
  if (!attachments?.length) return <Empty>{t("noAttachments")}</Empty>;
  return (
    <ul className="flex flex-col gap-2">
      {attachments.map((attachment, index) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: an attachment is known by its place (its download link says so)
          key={index}
          className="flex items-center justify-between gap-3 rounded-lg border px-4 py-3"
        >
          <span className="min-w-0">
            <span className="block truncate text-sm font-medium">{attachment.filename || attachment.contentType}</span>
            <span className="text-muted-foreground text-xs">
              {attachment.contentType} · {formatSize(attachment.size, locale)}
            </span>
          </span>
          <Button variant="outline" size="sm" asChild>
            <a
              href={attachmentPath(emailCallbackId, processingId, index)}
              download
              aria-label={t("download", { filename: attachment.filename || attachment.contentType })}
            >
              <DownloadIcon aria-hidden />
            </a>
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** rspamd's actions, by the key of their words in the page's language. */
const SPAM_ACTION_KEYS: Record<string, string> = {
  "no action": "noAction",
  greylist: "greylist",
  "add header": "addHeader",
  "rewrite subject": "rewriteSubject",
  "soft reject": "softReject",
  reject: "reject",
};

/**
 * The checks in the page's language: the verdicts (pass, none…) are words of the RFCs in the
 * webhook body, and words of the reader here; a word we do not know is shown as sent.
 */
export function MailChecks({ mail }: { mail: SentMail }) {
  const t = useTranslations("processing.message");
  const locale = useLocale();
  const translated = (key: string, word: string) => (t.has(key as never) ? t(key as never) : word);
  const verdict = (result: string) => translated(`verdicts.${result}`, result);
  const auth = mail.authentication;
  const rows: [string, string][] = auth
    ? [
        [t("spf"), auth.spf ? `${verdict(auth.spf.result)}${auth.spf.domain ? ` (${auth.spf.domain})` : ""}` : "—"],
        [t("dkim"), auth.dkim.length ? auth.dkim.map((d) => `${verdict(d.result)} (${d.domain})`).join(", ") : t("none")],
        [
          t("dmarc"),
          `${verdict(auth.dmarc.result)}${auth.dmarc.reason ? `, ${auth.dmarc.reason}` : ""}${auth.dmarc.policy ? `, ${t("dmarcPolicy", { policy: translated(`dmarcPolicies.${auth.dmarc.policy}`, auth.dmarc.policy) })}` : ""}`,
        ],
        [t("arc"), verdict(auth.arc.result)],
      ]
    : [];
  if (mail.spam) {
    const action = SPAM_ACTION_KEYS[mail.spam.action];
    rows.push([
      t("spam"),
      `${new Intl.NumberFormat(locale).format(mail.spam.score)} (${action ? translated(`spamActions.${action}`, mail.spam.action) : mail.spam.action})`,
    ]);
  }
  const flags = mail.flags
    ? [mail.flags.isAutoReply && t("autoReply"), mail.flags.isBounce && t("bounce"), mail.flags.isMailingList && t("mailingList")]
    : [];
  rows.push([t("flags"), flags.filter(Boolean).join(", ") || t("none")]);
  return (
    <div className="flex flex-col gap-3">
      {auth ? null : <p className="text-muted-foreground text-sm">{t("notChecked")}</p>}
      <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-2 rounded-lg border p-4 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="leading-5 break-words">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
