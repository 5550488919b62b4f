/** Every query key of the app, in one place so invalidation cannot drift from the queries. */
export const queryKeys = {
  currentUser: ['auth', 'user'] as const,
  /** The signed-in person's own recent sign-ins (their profile). */
  ownSignIns: ['auth', 'sign-ins'] as const,
  /** The signed-in person's second factors and recovery codes left (their profile). */
  secondFactors: ['auth', 'second-factors'] as const,
  /** The signed-in person's open sessions (their profile). */
  ownSessions: ['auth', 'sessions'] as const,
  captchaConfig: ['captcha', 'config'] as const,
  inviteStatus: (token: string) => ['auth', 'invite-status', token] as const,
  oauthApplication: (clientId: string) => ['oauth', 'application', clientId] as const,
  /**
   * Workspace-scoped data starts with the workspace id: switching workspace can never answer
   * from another workspace's cache, and one prefix drops or refreshes all of a workspace.
   */
  workspace: (workspaceId: string) => [workspaceId] as const,
  resource: (workspaceId: string, resourceKey: string) => [workspaceId, resourceKey] as const,
  resourceList: (workspaceId: string, resourceKey: string, params: object) =>
    [workspaceId, resourceKey, 'list', params] as const,
  resourceRecord: (workspaceId: string, resourceKey: string, id: string) =>
    [workspaceId, resourceKey, 'record', id] as const,
  /** The workspace's own settings (`GET workspaces/settings`). */
  workspaceSettings: (workspaceId: string) => [workspaceId, 'settings'] as const,
  installedOauthApplication: (workspaceId: string, clientId: string) =>
    [workspaceId, 'oauth', 'installed-application', clientId] as const,
  resourceFilters: (workspaceId: string, resourceKey: string) =>
    [workspaceId, resourceKey, 'filters'] as const,
  /** The dashboard's Get started list of a workspace, computed from its data for the member. */
  getStarted: (workspaceId: string) => [workspaceId, 'get-started'] as const,
  /** How the workspace pays its invoices (`GET payments/instructions`: the operator's bank transfer). */
  paymentInstructions: (workspaceId: string) => [workspaceId, 'payments', 'instructions'] as const,
};
