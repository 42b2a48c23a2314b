import { config } from 'zod/v4/core';

/**
 * Makes zod check each message shape as it is, without first generating and compiling a parser
 * for it (`new Function`), which costs more at start-up than it saves on this server's small
 * messages. Called before the MCP SDK defines its schemas (zod reads the setting then).
 */
export function interpretSchemas(): void {
  config({ jitless: true });
}
