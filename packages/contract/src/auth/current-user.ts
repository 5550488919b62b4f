/** A workspace as the current user sees it. */
export interface WorkspaceSummary {
  id: string;
  name: string;
  logo: string | null;
  /** ISO 4217: what the workspace's exchange rates are against. */
  baseCurrency: string;
  /** IANA time zone: the workspace's "today", and the zone its dates are shown in. */
  timeZone: string;
  /** Its members must have used a second factor in their session to see anything of it. */
  requireSecondFactor: boolean;
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
  /** Whether the person has enrolled a second factor (an authenticator app or a passkey). */
  hasSecondFactor: boolean;
  /** How this session authenticated (RFC 8176 names): more than `pwd` when a second factor was used. */
  sessionFactors: string[];
}
