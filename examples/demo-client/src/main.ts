import { configFromEnv, homeUrl } from './config.ts';
import { startDemoClient } from './server.ts';

const config = configFromEnv();
await startDemoClient(config);
console.log(`Demo app on ${homeUrl(config.redirectUri)} — signs in through Dukkan at ${config.dukkanUrl}`);
