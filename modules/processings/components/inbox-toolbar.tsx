"use client";
// Above the inbox: a search over sender and subject (applied once typing pauses, or at Enter), a
// status filter, and "Redeliver all failed" when some mail failed. Changing the search or the
// status goes back to the first page.
import { SearchIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import type { InboxView } from "../inbox-view";
import { INBOX_SEARCH_MAX_LENGTH, PROCESSING_STATUS, type ProcessingStatus } from "../processings.constants";
import { RedeliverFailedButton } from "./redeliver-failed-button";

/** How long typing must pause before the search applies. */
const SEARCH_DEBOUNCE_MS = 300;

const ALL_STATUSES = "all";

export function InboxToolbar({
  emailCallbackId,
  view,
  showView,
}: {
  emailCallbackId: string;
  view: InboxView;
  showView: (view: InboxView, options?: { replace?: boolean }) => void;
}) {
  const t = useTranslations("processing");
  const statusLabels: Record<ProcessingStatus, string> = {
    [PROCESSING_STATUS.SUCCESS]: t("status.success"),
    [PROCESSING_STATUS.ERROR]: t("status.error"),
    [PROCESSING_STATUS.NOT_PROCESSED]: t("status.not-processed"),
    [PROCESSING_STATUS.PENDING]: t("status.pending"),
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      <SearchBox
        value={view.q ?? ""}
        onSearch={(q, isRefinement) => showView({ ...view, q: q || undefined, pageIndex: 0 }, { replace: isRefinement })}
      />
      <NativeSelect
        aria-label={t("inbox.filters.status")}
        className="w-40 max-sm:flex-1"
        value={view.status ?? ALL_STATUSES}
        onChange={(event) => {
          const value = event.target.value;
          showView({ ...view, status: value === ALL_STATUSES ? undefined : (value as ProcessingStatus), pageIndex: 0 });
        }}
      >
        <option value={ALL_STATUSES}>{t("inbox.filters.allStatuses")}</option>
        {Object.entries(statusLabels).map(([status, label]) => (
          <option key={status} value={status}>
            {label}
          </option>
        ))}
      </NativeSelect>
      <RedeliverFailedButton emailCallbackId={emailCallbackId} />
    </div>
  );
}

/**
 * The search box: its text applies once typing pauses (or at Enter). Starting a search is a new
 * view; typing on refines it (`isRefinement`). When the URL's search changes from elsewhere (back,
 * "clear filters"), the box shows it.
 */
function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string, isRefinement: boolean) => void }) {
  const t = useTranslations("processing.inbox.filters");
  const [text, setText] = useState(value);
  // The search last applied from this box: a URL value that differs from it came from elsewhere.
  const applied = useRef(value);

  useEffect(() => {
    if (value === applied.current) return;
    applied.current = value;
    setText(value);
  }, [value]);

  const apply = (next: string) => {
    const q = next.trim();
    if (q === value) return;
    applied.current = q;
    onSearch(q, value !== "");
  };
  const applyLater = useEffectEvent(apply);

  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => applyLater(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);

  return (
    <search className="min-w-0 flex-1 basis-56">
      <form
        className="relative"
        onSubmit={(event) => {
          event.preventDefault();
          apply(text);
        }}
      >
        <SearchIcon
          aria-hidden
          className="text-muted-foreground pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2"
        />
        <Input
          type="search"
          value={text}
          maxLength={INBOX_SEARCH_MAX_LENGTH}
          onChange={(event) => setText(event.target.value)}
          placeholder={t("searchPlaceholder")}
          aria-label={t("search")}
          className="pl-8"
        />
      </form>
    </search>
  );
}
