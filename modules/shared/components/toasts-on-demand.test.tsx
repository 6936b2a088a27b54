// @vitest-environment jsdom
// Toasts loaded on demand (docs/architecture.md, Decisions and their reasons: page weight): no
// toaster until the first toast; the toasts raised while sonner loads are shown once the toaster is
// mounted, none lost and in the order they were raised; the later ones show at once, in that one
// toaster.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ToastsOnDemandProvider, useToast } from "./toasts-on-demand";

afterEach(cleanup);

/** Long enough for the first dynamic import of sonner on a loaded machine. */
const LOAD_TIMEOUT_MS = 10_000;

function ToastButtons() {
  const toast = useToast();
  return (
    <>
      <button
        type="button"
        onClick={() => {
          toast.success("First");
          toast.error("Second", { description: "Details of the second" });
          toast.success("Third");
        }}
      >
        Raise three
      </button>
      <button type="button" onClick={() => toast.error("Later")}>
        Raise later
      </button>
    </>
  );
}

const toasterCount = () => document.querySelectorAll("[data-sonner-toaster]").length;
/** The toasts' titles in the order they were raised (sonner lists the newest first). */
const toastTitles = () =>
  [...document.querySelectorAll("[data-sonner-toast] [data-title]")].map((title) => title.textContent).reverse();

describe("toasts loaded on demand", () => {
  it("has no toaster until the first toast", () => {
    render(
      <ToastsOnDemandProvider>
        <ToastButtons />
      </ToastsOnDemandProvider>,
    );
    expect(document.querySelector("[data-sonner-toaster]")).toBeNull();
    expect(screen.getByRole("button", { name: "Raise three" })).toBeTruthy();
  });

  it("shows the toasts raised before the toaster loaded once it is mounted, in order, then the later ones", async () => {
    render(
      <ToastsOnDemandProvider>
        <ToastButtons />
      </ToastsOnDemandProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Raise three" }));
    expect(toasterCount()).toBe(0);
    expect(screen.queryByText("First")).toBeNull();

    await screen.findByText("Third", undefined, { timeout: LOAD_TIMEOUT_MS });
    await screen.findByText("Details of the second");
    expect(toastTitles()).toEqual(["First", "Second", "Third"]);
    expect(toasterCount()).toBe(1);

    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Raise later" })));
    await screen.findByText("Later");
    expect(toastTitles()).toEqual(["First", "Second", "Third", "Later"]);
    expect(toasterCount()).toBe(1);
  });

  it("refuses to give toasts outside its provider", () => {
    expect(() => render(<ToastButtons />)).toThrow("useToast needs a ToastsOnDemandProvider above it");
  });
});
