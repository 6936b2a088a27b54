// @vitest-environment jsdom
// A menu loaded on demand as a user meets it (docs/architecture.md, Decisions and their reasons: page
// weight): a plain button with the trigger's name until used; pointing at it or focusing it starts
// loading the menu; a click or the Down arrow shows the menu open, and it keeps working after.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { MenuOnDemand } from "./menu-on-demand";

beforeAll(() => {
  // jsdom has no ResizeObserver; Radix's positioning observes the menu with one.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

afterEach(cleanup);

function renderMenu() {
  const preload = vi.fn();
  const onSelect = vi.fn();
  const trigger = <button type="button">Actions</button>;
  render(
    <MenuOnDemand
      trigger={trigger}
      preload={preload}
      menu={
        <DropdownMenu defaultOpen>
          <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
          <DropdownMenuContent>
            <DropdownMenuItem onSelect={onSelect}>Delete</DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      }
    />,
  );
  return { preload, onSelect, button: screen.getByRole("button", { name: "Actions" }) };
}

describe("a menu loaded on demand", () => {
  it("is a closed menu's button on first paint, and starts loading when pointed at or focused", () => {
    const { preload, button } = renderMenu();
    expect(button.getAttribute("aria-haspopup")).toBe("menu");
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(preload).not.toHaveBeenCalled();
    fireEvent.pointerEnter(button);
    fireEvent.focus(button);
    expect(preload).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("opens on a click, and its items work", async () => {
    const { onSelect, button } = renderMenu();
    await act(async () => fireEvent.click(button));
    expect(screen.getByRole("menu")).toBeTruthy();
    // While the menu is open (modal), Radix hides the rest of the page from assistive technology.
    expect(screen.getByRole("button", { name: "Actions", hidden: true }).getAttribute("aria-expanded")).toBe("true");
    await act(async () => fireEvent.click(screen.getByRole("menuitem", { name: "Delete" })));
    expect(onSelect).toHaveBeenCalledOnce();
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("opens on the Down arrow, as Radix's trigger does", async () => {
    const { button } = renderMenu();
    await act(async () => fireEvent.keyDown(button, { key: "ArrowDown" }));
    expect(screen.getByRole("menu")).toBeTruthy();
  });
});
