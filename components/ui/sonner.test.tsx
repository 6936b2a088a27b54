// @vitest-environment jsdom
// The toaster fetches sonner with the first toast, not with the page. When that fetch fails (the
// network went away), the toast still shows: announced, with its description, and gone after its
// duration; the next toast tries the fetch again.
import { act, cleanup, render, screen, waitForElementToBeRemoved } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  cleanup();
  vi.doUnmock("./sonner-toaster");
});

/** A fresh copy of the module with sonner's chunk failing to load, as when offline. */
async function renderOfflineToaster() {
  vi.resetModules();
  let isOffline = true;
  vi.doMock("./sonner-toaster", async () => {
    if (isOffline) throw new TypeError("Failed to fetch dynamically imported module");
    return vi.importActual("./sonner-toaster");
  });
  const { Toaster, toast } = await import("./sonner");
  render(<Toaster />);
  return { toast, goOnline: () => (isOffline = false) };
}

describe("Toaster", () => {
  it("shows a toast whose toaster cannot be fetched in a built-in toast, announced as a status", async () => {
    const { toast } = await renderOfflineToaster();
    expect(screen.queryByRole("status")).toBeNull();

    act(() => toast.error("Hookmail could not be reached", { description: "Check your connection." }));

    const shown = await screen.findByRole("status");
    expect(shown.textContent).toContain("Hookmail could not be reached");
    expect(shown.textContent).toContain("Check your connection.");
  });

  it("removes the built-in toast after its duration", async () => {
    const { toast } = await renderOfflineToaster();
    act(() => toast.success("Address disabled", { duration: 300 }));
    await waitForElementToBeRemoved(await screen.findByRole("status"), { timeout: 2000 });
  });

  it("tries to fetch the toaster again with the next toast", async () => {
    const { toast, goOnline } = await renderOfflineToaster();
    act(() => toast.error("First"));
    await screen.findByRole("status");

    goOnline();
    act(() => toast.success("Second"));

    await screen.findByText("Second");
    // The second toast is sonner's: its toaster's list, not the built-in one.
    expect(document.querySelector("[data-sonner-toaster]")).not.toBeNull();
    expect(screen.getAllByRole("status")).toHaveLength(1);
  });
});
