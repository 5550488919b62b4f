/** The part of s3rver (an in-process S3 server, a Koa app, untyped) the tests use. */
declare module 's3rver' {
  interface S3rverContext {
    method: string;
    path: string;
    querystring: string;
    query: Record<string, unknown>;
    headers: Record<string, string | string[] | undefined>;
    status: number;
    type: string;
    body: unknown;
  }
  type Middleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void>;
  interface S3rverOptions {
    address?: string;
    port?: number;
    directory: string;
    silent?: boolean;
    configureBuckets?: { name: string; configs: string[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list: composed when the server starts. */
    middleware: Middleware[];
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
