import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { ComponentType, ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { MenuWithTriggerProps } from '../../components/ui/deferred-menu.tsx';
import { useDirection } from '../../lib/use-direction.ts';
import { menuItemClassName } from './menu-styles.ts';

/**
 * A shell menu's Radix frame: the deferred menu's trigger, and the menu's `content` in a portal,
 * in the interface's direction. Not modal: a modal menu hides the page (aria-hidden) while its
 * links stay focusable (axe: aria-hidden-focus).
 */
export function MenuFrame({
  trigger: { defaultOpen, triggerClassName, triggerContent, triggerRef },
  content,
  children,
}: {
  trigger: MenuWithTriggerProps;
  content: Pick<DropdownMenu.DropdownMenuContentProps, 'align' | 'sideOffset' | 'className'>;
  children: ReactNode;
}) {
  const dir = useDirection();
  return (
    <DropdownMenu.Root dir={dir} modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger ref={triggerRef} className={triggerClassName}>
        {triggerContent}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content {...content}>{children}</DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** The line between groups of a shell menu's items. */
export function MenuSeparator() {
  return <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />;
}

/** A shell menu's item that opens a page of the app: its icon, then its name. */
export function MenuLink({
  to,
  icon: Icon,
  children,
}: {
  to: string;
  icon: ComponentType<{ className?: string }>;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  return (
    <DropdownMenu.Item className={menuItemClassName} onSelect={() => void navigate(to)}>
      <Icon className="size-4" />
      {children}
    </DropdownMenu.Item>
  );
}
