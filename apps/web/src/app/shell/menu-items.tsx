import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { ComponentType, ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { menuItemClassName } from './menu-styles.ts';

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
