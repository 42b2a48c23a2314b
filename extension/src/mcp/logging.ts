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
    this.base.trace(message, ...args);
    this.forward('debug', message, args);
  }

  debug(message: string, ...args: unknown[]): void {
    this.base.debug(message, ...args);
    this.forward('debug', message, args);
  }

  info(message: string, ...args: unknown[]): void {
    this.base.info(message, ...args);
    this.forward('info', message, args);
  }

  warn(message: string, ...args: unknown[]): void {
    this.base.warn(message, ...args);
    this.forward('warning', message, args);
  }

  error(message: string | Error, ...args: unknown[]): void {
    this.base.error(message, ...args);
    this.forward('error', message, args);
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
