"use client";
// A table's pager: rows per page, "Page x of y", and first / previous / next / last buttons.
import { ChevronLeftIcon, ChevronRightIcon, ChevronsLeftIcon, ChevronsRightIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { type ReactNode, useId } from "react";
import { Button } from "@/components/ui/button";
import { NativeSelect } from "@/components/ui/native-select";
import { cn } from "@/modules/shared/cn";

export function getPageCount(totalCount: number, pageSize: number): number {
  return Math.max(1, Math.ceil(totalCount / pageSize));
}

export function DataTablePagination({
  pageIndex,
  pageSize,
  totalCount,
  pageSizeOptions,
  onPageIndexChange,
  onPageSizeChange,
  className,
}: {
  /** Zero-based. */
  pageIndex: number;
  pageSize: number;
  totalCount: number;
  pageSizeOptions: readonly number[];
  onPageIndexChange: (pageIndex: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  className?: string;
}) {
  const t = useTranslations("common.pagination");
  const rowsPerPageId = useId();
  const pageCount = getPageCount(totalCount, pageSize);
  const isFirstPage = pageIndex <= 0;
  const isLastPage = pageIndex >= pageCount - 1;

  return (
    <div className={cn("flex flex-wrap items-center justify-end gap-x-6 gap-y-3 text-sm", className)}>
      <div className="flex items-center gap-2">
        <span id={rowsPerPageId} className="font-medium">
          {t("rowsPerPage")}
        </span>
        <NativeSelect
          size="sm"
          aria-labelledby={rowsPerPageId}
          className="w-20"
          value={String(pageSize)}
          onChange={(event) => onPageSizeChange(Number(event.target.value))}
        >
          {pageSizeOptions.map((option) => (
            <option key={option} value={String(option)}>
              {option}
            </option>
          ))}
        </NativeSelect>
      </div>
      <p className="font-medium tabular-nums" aria-live="polite">
        {t("pageOf", { page: pageIndex + 1, pageCount })}
      </p>
      <div className="flex items-center gap-2">
        <PagerButton label={t("firstPage")} disabled={isFirstPage} onClick={() => onPageIndexChange(0)}>
          <ChevronsLeftIcon aria-hidden />
        </PagerButton>
        <PagerButton label={t("previousPage")} disabled={isFirstPage} onClick={() => onPageIndexChange(pageIndex - 1)}>
          <ChevronLeftIcon aria-hidden />
        </PagerButton>
        <PagerButton label={t("nextPage")} disabled={isLastPage} onClick={() => onPageIndexChange(pageIndex + 1)}>
          <ChevronRightIcon aria-hidden />
        </PagerButton>
        <PagerButton label={t("lastPage")} disabled={isLastPage} onClick={() => onPageIndexChange(pageCount - 1)}>
          <ChevronsRightIcon aria-hidden />
        </PagerButton>
      </div>
    </div>
  );
}

function PagerButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button type="button" variant="outline" size="icon-sm" aria-label={label} title={label} disabled={disabled} onClick={onClick}>
      {children}
    </Button>
  );
}
