"use client";
// Delivery alerts on or off (docs/webhooks.md: Delivery alerts): a checkbox showing the account's
// setting, saved through PUT /api/users/me as soon as it changes.
import { useTranslations } from "next-intl";
import { useId } from "react";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { TitledCard } from "@/modules/shared/components/titled-card";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import { useCurrentUserQuery, useUpdateCurrentUserMutation } from "../users.queries";

export function DeliveryAlertsCard() {
  const t = useTranslations("settings.deliveryAlerts");
  const toast = useToast();
  const apiErrorMessage = useApiErrorMessage();
  const checkboxId = useId();
  const { data } = useCurrentUserQuery();
  const update = useUpdateCurrentUserMutation();
  const isOn = update.isPending ? update.variables?.deliveryAlerts === true : data?.user.deliveryAlerts === true;

  function onCheckedChange(checked: boolean) {
    update.mutate(
      { deliveryAlerts: checked },
      {
        onSuccess: ({ user }) => toast.success(user.deliveryAlerts ? t("enabled") : t("disabled")),
        onError: (error) => toast.error(apiErrorMessage(error)),
      },
    );
  }

  return (
    <TitledCard title={t("title")} description={t("description")}>
      <div className="flex items-center gap-2">
        <Checkbox
          id={checkboxId}
          checked={isOn}
          disabled={!data || update.isPending}
          onCheckedChange={(checked) => onCheckedChange(checked === true)}
        />
        <Label htmlFor={checkboxId} className="font-normal">
          {t("label")}
        </Label>
      </div>
    </TitledCard>
  );
}
