import type { PermissionTag } from '@dukkan/contract';
import type { ReactNode } from 'react';
import { Page } from '../components/page.tsx';
import { useCan } from '../lib/workspace-context.tsx';
import { NotAuthorized } from './not-authorized.tsx';

interface RequirePermissionProps {
  and?: readonly PermissionTag[];
  or?: readonly PermissionTag[];
  /** The screen's title, kept on the rejection view so the header still says where the user is. */
  title: string;
  children: ReactNode;
}

/** A route guard: the page when the user holds the permissions, else the rejection view (spec §2). */
export function RequirePermission({ and, or, title, children }: RequirePermissionProps) {
  const allowed = useCan({ and, or });
  if (allowed) return children;
  return (
    <Page title={title}>
      <NotAuthorized />
    </Page>
  );
}
