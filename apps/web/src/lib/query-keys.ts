/** Every query key of the app, in one place so invalidation cannot drift from the queries. */
export const queryKeys = {
  currentUser: ['auth', 'user'] as const,
  captchaConfig: ['captcha', 'config'] as const,
};
