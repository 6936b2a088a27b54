// The two DNS records a domain needs (docs/domains.md: Verification), each name and value with a
// copy button; long values wrap rather than widen the page on a phone.
import { useTranslations } from "next-intl";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { CopyButton } from "@/modules/shared/components/copy-button";
import type { DnsRecordToSet } from "../domains.models";

export function DomainRecordsTable({ records }: { records: DnsRecordToSet[] }) {
  const t = useTranslations("domains.card");
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("columns.type")}</TableHead>
          <TableHead>{t("columns.name")}</TableHead>
          <TableHead>{t("columns.value")}</TableHead>
          <TableHead>{t("columns.priority")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {records.map((record) => (
          <TableRow key={record.type}>
            <TableCell className="align-top font-medium">{record.type}</TableCell>
            <TableCell className="align-top whitespace-normal">
              <CopyableValue value={record.name} label={t("copyName", { type: record.type })} />
            </TableCell>
            <TableCell className="align-top whitespace-normal">
              <CopyableValue value={record.value} label={t("copyValue", { type: record.type })} />
            </TableCell>
            <TableCell className="align-top">{record.type === "MX" ? record.priority : null}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function CopyableValue({ value, label }: { value: string; label: string }) {
  return (
    <div className="flex items-start gap-1">
      <code className="min-w-0 flex-1 pt-1.5 font-mono text-xs break-all">{value}</code>
      <CopyButton value={value} label={label} className="shrink-0" />
    </div>
  );
}
