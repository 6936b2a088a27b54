// The two DNS records a domain needs (docs/domains.md: Verification), each name and value with a
// copy button; long values wrap rather than widen the page, and on a phone each record's cells stack
// under their column's name (the header row is hidden there).
import { useTranslations } from "next-intl";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/modules/shared/cn";
import { CopyButton } from "@/modules/shared/components/copy-button";
import type { DnsRecordToSet } from "../domains.models";
import { NameBreakingAtDots } from "./name-breaking-at-dots";

/** On a phone: the cell on its own line, its column's name before it. */
const STACKED_CELL =
  "max-sm:block max-sm:p-0 max-sm:before:text-muted-foreground max-sm:before:text-xs max-sm:before:content-[attr(data-label)]";

export function DomainRecordsTable({ records }: { records: DnsRecordToSet[] }) {
  const t = useTranslations("domains.card");
  return (
    <Table>
      <TableHeader className="max-sm:hidden">
        <TableRow>
          <TableHead>{t("columns.type")}</TableHead>
          <TableHead>{t("columns.name")}</TableHead>
          <TableHead>{t("columns.value")}</TableHead>
          <TableHead>{t("columns.priority")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {records.map((record) => (
          <TableRow key={record.type} className="max-sm:flex max-sm:flex-col max-sm:gap-1 max-sm:py-2">
            <TableCell className="align-top font-medium max-sm:p-0">{record.type}</TableCell>
            <TableCell data-label={t("columns.name")} className={cn("align-top whitespace-normal", STACKED_CELL)}>
              <CopyableValue value={record.name} label={t("copyName", { type: record.type })} isDnsName />
            </TableCell>
            <TableCell data-label={t("columns.value")} className={cn("align-top whitespace-normal", STACKED_CELL)}>
              <CopyableValue value={record.value} label={t("copyValue", { type: record.type })} />
            </TableCell>
            <TableCell
              data-label={t("columns.priority")}
              className={cn("align-top", STACKED_CELL, record.type === "MX" ? "max-sm:before:mr-2" : "max-sm:hidden")}
            >
              {record.type === "MX" ? record.priority : null}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** A name wraps after its dots where it can (`_hookmail.shop.` / `example`); a token anywhere. */
function CopyableValue({ value, label, isDnsName = false }: { value: string; label: string; isDnsName?: boolean }) {
  return (
    <div className="flex items-start gap-1">
      <code className={cn("min-w-0 flex-1 pt-1.5 font-mono text-xs", isDnsName ? "[overflow-wrap:anywhere]" : "break-all")}>
        {isDnsName ? <NameBreakingAtDots name={value} /> : value}
      </code>
      <CopyButton value={value} label={label} className="shrink-0" />
    </div>
  );
}
