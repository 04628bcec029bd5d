// pino JSON logs on stderr; quiet (warn) unless STRESS_GATE_LOG_LEVEL says otherwise.
import { destination, pino, type Logger } from 'pino';

export type { Logger };

/** The root logger; modules take a child with `{ module: '…' }`. */
export function createLogger(env: NodeJS.ProcessEnv = process.env): Logger {
  // An unknown level is rejected by checkEnvironment before anything runs; never throw here.
  const wanted = env['STRESS_GATE_LOG_LEVEL']?.trim() || 'warn';
  const level = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(wanted) ? wanted : 'warn';
  return pino({ level, base: { name: 'stress-orchestrator' } }, destination(2));
}

/** A logger that drops everything: the default for tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
