"use client";

// Radix's menu code (positioning, roving focus, scroll lock: the largest part of a closed menu's
// weight) is loaded when a menu is about to be used, not with the page: hovering or focusing the
// trigger starts loading it; the first press (pointer, Enter, Space, ArrowDown) turns the menu into
// Radix's and is replayed on Radix's trigger, so the menu opens as it would have. Until then the
// trigger renders as Radix renders a closed one, and the rest of the menu renders nothing.

import { CheckIcon, ChevronRightIcon, CircleIcon } from "lucide-react";
import { type DropdownMenu as DropdownMenuPrimitiveTypes, Slot } from "radix-ui";
import * as React from "react";

import {
  composeEventHandlers,
  composeRefs,
  createLazyModule,
  createLoaderContext,
  hasFocus,
  preloadLazyModule,
  useDormantRoot,
} from "@/components/ui/lazy-primitive";
import { after, before, lazySlot, slot } from "@/components/ui/slot";

type DropdownMenuPrimitive = typeof DropdownMenuPrimitiveTypes;

const dropdownMenuModule = createLazyModule(() =>
  import("./dropdown-menu-primitive").then((module) => module.DropdownMenuPrimitive),
);

/** A press on the trigger before Radix had loaded: replayed on Radix's trigger. */
type PendingPress = { kind: "pointer" } | { kind: "key"; key: string };

type DropdownMenuLoader = {
  /** The loaded Radix menu, or null while the menu is dormant. */
  Primitive: DropdownMenuPrimitive | null;
  wake: (press?: PendingPress) => void;
  /** Reads and clears what the dormant trigger left for Radix's: a press, whether it had focus. */
  takeHandOver: () => { press: PendingPress | undefined; hadFocus: boolean };
  triggerRef: React.RefObject<HTMLElement | null>;
};

const IDLE_HAND_OVER: { press: PendingPress | undefined; hadFocus: boolean } = { press: undefined, hadFocus: false };

const {
  Provider: DropdownMenuLoaderProvider,
  useLoader: useDropdownMenuLoader,
  /** Radix's menu, for the parts that only render inside an open menu (the content and below). */
  usePrimitive: useDropdownMenuPrimitive,
} = createLoaderContext<DropdownMenuLoader>("DropdownMenu");

function DropdownMenu({ ...props }: React.ComponentProps<DropdownMenuPrimitive["Root"]>) {
  const { Primitive, triggerRef, wakeWith, takeHandOver } = useDormantRoot(dropdownMenuModule, props, IDLE_HAND_OVER);
  const loader = React.useMemo<DropdownMenuLoader>(
    () => ({
      Primitive,
      // The dormant trigger is about to be replaced by Radix's, which takes over its focus.
      wake: (press) => wakeWith({ press, hadFocus: hasFocus(triggerRef) }),
      takeHandOver,
      triggerRef,
    }),
    [Primitive, wakeWith, takeHandOver, triggerRef],
  );

  return (
    <DropdownMenuLoaderProvider value={loader}>
      {Primitive ? <Primitive.Root data-slot="dropdown-menu" {...props} /> : props.children}
    </DropdownMenuLoaderProvider>
  );
}

function DropdownMenuPortal({ ...props }: React.ComponentProps<DropdownMenuPrimitive["Portal"]>) {
  const { Primitive } = useDropdownMenuLoader("DropdownMenuPortal");
  return Primitive ? <Primitive.Portal data-slot="dropdown-menu-portal" {...props} /> : null;
}

function DropdownMenuTrigger({ ...props }: React.ComponentProps<DropdownMenuPrimitive["Trigger"]>) {
  const { Primitive } = useDropdownMenuLoader("DropdownMenuTrigger");
  return Primitive ? <LoadedDropdownMenuTrigger {...props} /> : <DormantDropdownMenuTrigger {...props} />;
}

/** The trigger before Radix has loaded: a closed Radix trigger's markup; hover or focus loads Radix. */
function DormantDropdownMenuTrigger({
  asChild,
  disabled = false,
  ref,
  onPointerEnter,
  onFocus,
  onPointerDown,
  onKeyDown,
  ...props
}: React.ComponentProps<DropdownMenuPrimitive["Trigger"]>) {
  const loader = useDropdownMenuLoader("DropdownMenuTrigger");
  const Component = asChild ? Slot.Root : "button";
  return (
    <Component
      data-slot="dropdown-menu-trigger"
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      data-disabled={disabled ? "" : undefined}
      disabled={disabled}
      {...props}
      ref={composeRefs(ref, loader.triggerRef)}
      onPointerEnter={composeEventHandlers(onPointerEnter, () => preloadLazyModule(dropdownMenuModule))}
      onFocus={composeEventHandlers(onFocus, () => preloadLazyModule(dropdownMenuModule))}
      onPointerDown={composeEventHandlers(onPointerDown, (event) => {
        if (disabled || event.button !== 0 || event.ctrlKey) return;
        event.preventDefault(); // as Radix does when opening: the focus goes to the menu, not the trigger
        loader.wake({ kind: "pointer" });
      })}
      onKeyDown={composeEventHandlers(onKeyDown, (event) => {
        if (disabled || !["Enter", " ", "ArrowDown"].includes(event.key)) return;
        event.preventDefault();
        loader.wake({ kind: "key", key: event.key });
      })}
    />
  );
}

/** Radix's trigger; on its first mount it takes over the focus and any press the dormant one had. */
function LoadedDropdownMenuTrigger({ ref, ...props }: React.ComponentProps<DropdownMenuPrimitive["Trigger"]>) {
  const loader = useDropdownMenuLoader("DropdownMenuTrigger");
  const Primitive = useDropdownMenuPrimitive("DropdownMenuTrigger");
  React.useEffect(() => {
    const { press, hadFocus } = loader.takeHandOver();
    const trigger = loader.triggerRef.current;
    if (!trigger || (!press && !hadFocus)) return;
    if (hadFocus || press?.kind === "key") trigger.focus();
    if (!press) return;
    // After every effect of this commit, so that Radix's own listeners (keyboard use) are in place.
    // Not cancelled on clean-up: the press was taken over once, and is replayed once.
    setTimeout(() => {
      if (press.kind === "pointer") {
        trigger.dispatchEvent(
          new PointerEvent("pointerdown", { bubbles: true, cancelable: true, button: 0, pointerType: "mouse" }),
        );
      } else {
        trigger.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, cancelable: true, key: press.key }));
      }
    });
  }, [loader]);
  return <Primitive.Trigger data-slot="dropdown-menu-trigger" {...props} ref={composeRefs(ref, loader.triggerRef)} />;
}

const MenuContent = lazySlot(
  useDropdownMenuPrimitive,
  "Content",
  "dropdown-menu-content",
  "z-50 max-h-(--radix-dropdown-menu-content-available-height) min-w-[8rem] origin-(--radix-dropdown-menu-content-transform-origin) overflow-x-hidden overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md data-[side=bottom]:slide-in-from-top-2 data-[side=left]:slide-in-from-right-2 data-[side=right]:slide-in-from-left-2 data-[side=top]:slide-in-from-bottom-2 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=closed]:zoom-out-95 data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95",
);

function DropdownMenuContent({ sideOffset = 4, ...props }: React.ComponentProps<DropdownMenuPrimitive["Content"]>) {
  const { Primitive } = useDropdownMenuLoader("DropdownMenuContent");
  // A dormant menu is closed, and Radix renders nothing for a closed menu's content.
  if (!Primitive) return null;
  return (
    <Primitive.Portal>
      <MenuContent sideOffset={sideOffset} {...props} />
    </Primitive.Portal>
  );
}

const DropdownMenuGroup = lazySlot(useDropdownMenuPrimitive, "Group", "dropdown-menu-group");

/** `inset` indents an item, a label or a sub-menu trigger to line up with items that have an icon. */
type Inset = { inset?: boolean };

const MenuItem = lazySlot(
  useDropdownMenuPrimitive,
  "Item",
  "dropdown-menu-item",
  "relative flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-hidden select-none focus:bg-accent focus:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50 data-[inset]:pl-8 data-[variant=destructive]:text-destructive data-[variant=destructive]:focus:bg-destructive/10 data-[variant=destructive]:focus:text-destructive dark:data-[variant=destructive]:focus:bg-destructive/20 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4 [&_svg:not([class*='text-'])]:text-muted-foreground data-[variant=destructive]:*:[svg]:text-destructive!",
);

function DropdownMenuItem({
  inset,
  variant = "default",
  ...props
}: React.ComponentProps<DropdownMenuPrimitive["Item"]> & Inset & { variant?: "default" | "destructive" }) {
  return <MenuItem data-inset={inset} data-variant={variant} {...props} />;
}

/** The check or dot of a checkbox or radio item, shown while it is checked. */
function MenuItemIndicator({ children }: { children: React.ReactNode }) {
  const Primitive = useDropdownMenuPrimitive("DropdownMenuItemIndicator");
  return (
    <span className="pointer-events-none absolute left-2 flex size-3.5 items-center justify-center">
      <Primitive.ItemIndicator>{children}</Primitive.ItemIndicator>
    </span>
  );
}

/** A checkbox or radio item: `indicator` before its text while it is checked. */
function checkableItem<K extends "CheckboxItem" | "RadioItem">(key: K, dataSlot: string, indicator: React.ReactNode) {
  return lazySlot(
    useDropdownMenuPrimitive,
    key,
    dataSlot,
    "relative flex cursor-default items-center gap-2 rounded-sm py-1.5 pr-2 pl-8 text-sm outline-hidden select-none focus:bg-accent focus:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4",
    before(<MenuItemIndicator>{indicator}</MenuItemIndicator>),
  );
}

const DropdownMenuCheckboxItem = checkableItem("CheckboxItem", "dropdown-menu-checkbox-item", <CheckIcon className="size-4" />);

const DropdownMenuRadioGroup = lazySlot(useDropdownMenuPrimitive, "RadioGroup", "dropdown-menu-radio-group");

const DropdownMenuRadioItem = checkableItem(
  "RadioItem",
  "dropdown-menu-radio-item",
  <CircleIcon className="size-2 fill-current" />,
);

const MenuLabel = lazySlot(
  useDropdownMenuPrimitive,
  "Label",
  "dropdown-menu-label",
  "px-2 py-1.5 text-sm font-medium data-[inset]:pl-8",
);

function DropdownMenuLabel({ inset, ...props }: React.ComponentProps<DropdownMenuPrimitive["Label"]> & Inset) {
  return <MenuLabel data-inset={inset} {...props} />;
}

const DropdownMenuSeparator = lazySlot(
  useDropdownMenuPrimitive,
  "Separator",
  "dropdown-menu-separator",
  "-mx-1 my-1 h-px bg-border",
);

const DropdownMenuShortcut = slot("span", "dropdown-menu-shortcut", "ml-auto text-xs tracking-widest text-muted-foreground");

const DropdownMenuSub = lazySlot(useDropdownMenuPrimitive, "Sub", "dropdown-menu-sub");

const MenuSubTrigger = lazySlot(
  useDropdownMenuPrimitive,
  "SubTrigger",
  "dropdown-menu-sub-trigger",
  "flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-hidden select-none focus:bg-accent focus:text-accent-foreground data-[inset]:pl-8 data-[state=open]:bg-accent data-[state=open]:text-accent-foreground [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4 [&_svg:not([class*='text-'])]:text-muted-foreground",
  after(<ChevronRightIcon className="ml-auto size-4" />),
);

function DropdownMenuSubTrigger({ inset, ...props }: React.ComponentProps<DropdownMenuPrimitive["SubTrigger"]> & Inset) {
  return <MenuSubTrigger data-inset={inset} {...props} />;
}

const DropdownMenuSubContent = lazySlot(
  useDropdownMenuPrimitive,
  "SubContent",
  "dropdown-menu-sub-content",
  "z-50 min-w-[8rem] origin-(--radix-dropdown-menu-content-transform-origin) overflow-hidden rounded-md border bg-popover p-1 text-popover-foreground shadow-lg data-[side=bottom]:slide-in-from-top-2 data-[side=left]:slide-in-from-right-2 data-[side=right]:slide-in-from-left-2 data-[side=top]:slide-in-from-bottom-2 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=closed]:zoom-out-95 data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95",
);

export {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuPortal,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuShortcut,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
};
