// pino JSON logs to stderr; a child logger per module and per request.
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { service: 'verdict-api' } }, pino.destination(2));
}

/** A logger that writes nothing, for tests. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
