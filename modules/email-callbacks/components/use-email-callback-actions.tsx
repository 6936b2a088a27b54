"use client";
import { useTranslations } from "next-intl";
import type { RefObject } from "react";
// Enabling, disabling and deleting an email callback, shared by the list's menu and the detail
// header: toasts "Email enabled" and "Email disabled" (the latter for 7 s),
// and deletion only after the user confirms. Render `confirmDialog` next to the controls.
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { useConfirmDialog } from "@/modules/shared/components/confirm-dialog";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import { toUnicodeAddress } from "@/modules/shared/domain-names";
import type { ApiEmailCallback } from "../email-callbacks.models";
import { useDeleteEmailCallback, useUpdateEmailCallback } from "../email-callbacks.queries";

const DISABLED_TOAST_DURATION_MS = 7000;

export function useEmailCallbackActions() {
  const t = useTranslations("emailCallbacks");
  const toast = useToast();
  const updateEmailCallback = useUpdateEmailCallback();
  const deleteEmailCallback = useDeleteEmailCallback();
  const { confirm, dialog } = useConfirmDialog();
  const apiErrorMessage = useApiErrorMessage();

  async function setEnabled(emailCallback: ApiEmailCallback, isEnabled: boolean) {
    try {
      await updateEmailCallback.mutateAsync({ emailCallbackId: emailCallback.id, input: { isEnabled } });
    } catch (error) {
      toast.error(apiErrorMessage(error));
      return;
    }
    if (isEnabled) toast.success(t("toggle.enabled"));
    else {
      toast.success(t("toggle.disabled"), {
        description: t("toggle.disabledDescription", { address: toUnicodeAddress(emailCallback.address) }),
        duration: DISABLED_TOAST_DURATION_MS,
      });
    }
  }

  /** Asks first; resolves true once the callback is deleted. */
  async function deleteWithConfirmation(
    emailCallback: ApiEmailCallback,
    returnFocus?: RefObject<HTMLElement | null>,
  ): Promise<boolean> {
    const isConfirmed = await confirm({
      returnFocus,
      title: t("delete.title"),
      description: t("delete.description"),
      confirmLabel: t("delete.confirm"),
      isDestructive: true,
    });
    if (!isConfirmed) return false;
    try {
      await deleteEmailCallback.mutateAsync(emailCallback.id);
      toast.success(t("delete.success"));
      return true;
    } catch (error) {
      toast.error(apiErrorMessage(error));
      return false;
    }
  }

  return {
    setEnabled,
    deleteWithConfirmation,
    isUpdating: updateEmailCallback.isPending,
    isDeleting: deleteEmailCallback.isPending,
    confirmDialog: dialog,
  };
}
