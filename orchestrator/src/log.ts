// pino JSON logs on stderr; quiet (warn) unless STRESS_GATE_LOG_LEVEL says otherwise.
import { destination, pino, type Logger } from 'pino';

export type { Logger };

/** The root logger; modules take a child with `{ module: '…' }`. */
export function createLogger(env: NodeJS.ProcessEnv = process.env): Logger {
  const level = env['STRESS_GATE_LOG_LEVEL']?.trim() || 'warn';
  return pino({ level, base: { name: 'stress-orchestrator' } }, destination(2));
}

/** A logger that drops everything: the default for tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
