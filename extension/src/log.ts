/**
 * The logging surface shared code needs. VS Code's `LogOutputChannel` satisfies it; the CLI and the
 * MCP server pass a stderr logger, so that shared modules never call `console.log`.
 */
export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'off'] as const;
export type LogLevel = (typeof LEVELS)[number];

/** A logger writing `[level] message` lines to stderr at or above `level`. */
export function stderrLogger(level: LogLevel = 'warn'): Logger {
  const threshold = LEVELS.indexOf(level);
  const write = (at: LogLevel) => (message: string | Error, ...args: unknown[]) => {
    if (LEVELS.indexOf(at) < threshold) {
      return;
    }
    process.stderr.write(`[${at}] ${logText(message, args)}\n`);
  };
  return { trace: write('trace'), debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = stderrLogger('off');

/** The message of something thrown, for a log line or an answer. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A log call's words as one line: the message, then each argument, errors by their message. */
export function logText(message: string | Error, args: readonly unknown[]): string {
  return [message, ...args].map(errorMessage).join(' ');
}
