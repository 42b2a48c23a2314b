import { logText, type Logger } from '../log';

/** MCP's logging levels (RFC 5424 names) that this server uses. */
export type McpLogLevel = 'debug' | 'info' | 'warning' | 'error';

/** Where log messages go besides stderr: `notifications/message` to the client. */
export type McpLogSink = (level: McpLogLevel, message: string) => void;

/**
 * A logger that writes to the host's logger (stderr for the `secretary mcp` process: stdout is
 * the protocol's) and, once a sink is attached, sends each message to the MCP client as a logging
 * notification. MCP has no `trace`: trace messages go out as `debug`. The client picks what it
 * receives with `logging/setLevel`; the SDK drops what is below it.
 */
export class McpLogger implements Logger {
  private sink: McpLogSink | undefined;

  constructor(private readonly base: Logger) {}

  /** Starts forwarding to `sink` (the server, once connected). */
  attach(sink: McpLogSink): void {
    this.sink = sink;
  }

  detach(): void {
    this.sink = undefined;
  }

  trace(message: string, ...args: unknown[]): void {
    this.log('trace', 'debug', message, args);
  }

  debug(message: string, ...args: unknown[]): void {
    this.log('debug', 'debug', message, args);
  }

  info(message: string, ...args: unknown[]): void {
    this.log('info', 'info', message, args);
  }

  warn(message: string, ...args: unknown[]): void {
    this.log('warn', 'warning', message, args);
  }

  error(message: string | Error, ...args: unknown[]): void {
    this.base.error(message, ...args);
    this.forward('error', message, args);
  }

  /** Writes to the host's logger at `method`, then forwards at MCP's `level`. */
  private log(method: 'trace' | 'debug' | 'info' | 'warn', level: McpLogLevel, message: string, args: unknown[]): void {
    this.base[method](message, ...args);
    this.forward(level, message, args);
  }

  private forward(level: McpLogLevel, message: string | Error, args: unknown[]): void {
    const sink = this.sink;
    if (!sink) {
      return;
    }
    try {
      sink(level, logText(message, args));
    } catch {
      // A log message must never break the call that logs it.
    }
  }
}
