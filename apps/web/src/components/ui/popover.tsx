import * as PopoverPrimitive from '@radix-ui/react-popover';
import type { ComponentPropsWithoutRef } from 'react';
import { cn } from '../../lib/class-names.ts';

export const Popover = PopoverPrimitive.Root;
export const PopoverTrigger = PopoverPrimitive.Trigger;
/** What the panel is placed against when no trigger opens it (a combobox's box). */
export const PopoverAnchor = PopoverPrimitive.Anchor;

interface PopoverContentProps
  extends Omit<ComponentPropsWithoutRef<typeof PopoverPrimitive.Content>, 'asChild'> {
  /**
   * Rendered where it is used instead of in a portal: inside a modal dialog, whose scroll lock
   * lets only its own content scroll, a long list then scrolls with the wheel.
   */
  inline?: boolean;
}

/** A floating panel under its trigger (focus moves in, Escape and outside clicks close it). */
export function PopoverContent({ children, className, inline = false, ...props }: PopoverContentProps) {
  const content = (
    <PopoverPrimitive.Content
      align="start"
      sideOffset={6}
      className={cn(
        'z-50 rounded-xl border border-slate-200 bg-white p-3 shadow-lg dark:border-slate-700 dark:bg-slate-900',
        className,
      )}
      {...props}
    >
      {children}
    </PopoverPrimitive.Content>
  );
  return inline ? content : <PopoverPrimitive.Portal>{content}</PopoverPrimitive.Portal>;
}
