export * from './audit.ts';
export * from './catalogue.ts';
export * from './identity.ts';
export * from './oauth.ts';
export * from './products.ts';
export * from './rate-limits.ts';
export * from './second-factors.ts';
export * from './subscriptions.ts';
