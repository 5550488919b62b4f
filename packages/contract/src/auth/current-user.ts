/** A workspace as the current user sees it. */
export interface WorkspaceSummary {
  id: string;
  name: string;
  logo: string | null;
  /** ISO 4217: what the workspace's exchange rates are against. */
  baseCurrency: string;
  /** IANA time zone: the workspace's "today", and the zone its dates are shown in. */
  timeZone: string;
}

export interface RoleSummary {
  id: string;
  code: string;
  title: string;
  permissions: { tag: string }[];
}

export interface WorkspaceMembership {
  workspaceId: string;
  workspace: WorkspaceSummary;
  role: RoleSummary;
}

/** `GET /api/auth/user` → `{ data: CurrentUser }` (spec §3, "Current user"). */
export interface CurrentUser {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  profilePicture: string | null;
  language: 'en' | 'ar';
  adminWorkspaces: WorkspaceSummary[];
  workspaces: WorkspaceMembership[];
}
