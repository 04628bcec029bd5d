// The Hono environment of the API: per-request variables set by the middleware.
import type { Logger } from '../log/logger.js';
import type { Principal } from '../accounts/principal.js';

/** Variables every API handler can read. */
export type AppEnv = { Variables: { requestId: string; log: Logger; principal: Principal } };
