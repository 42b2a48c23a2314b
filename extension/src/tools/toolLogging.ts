import type { ConsentListing } from '../core/generated/ConsentListing';
import type { ToolListing } from '../core/generated/ToolListing';
import { failureOf } from '../core/failure';
import type { Logger } from '../log';
import { errorMessage } from '../log';

/**
 * How every Secretary tool invocation is logged in VS Code (`Tool.invoke`), kept free of `vscode`
 * so that unit tests can check it with a recording logger:
 *
 * - before the call, trace: `Tool called: <name>`;
 * - a successful result, trace: `Tool <name> completed successfully` (our invocations are async);
 * - an exception (or a core trap), error: `Tool <name> failed: <message>`; the agent gets
 *   `{"isError": true, "message"}`;
 * - a failed result (`{"success": false, "error"}` or `{"isError": true, "message"}`), warn:
 *   `Tool <name> failed: <error>`. It is the same "failed" line, one level lower: such a result is
 *   an ordinary answer to the agent (a wrong index, a missing flag file), not a fault of the
 *   extension, and error-level lines stay for faults.
 */
export type Outcome<T> = { ok: true; value: T } | { ok: false; message: string };

export async function runLogged<T>(
  log: Logger,
  name: string,
  run: () => Promise<T>,
  textOf: (value: T) => string | undefined,
): Promise<Outcome<T>> {
  log.trace(`Tool called: ${name}`);
  let value: T;
  try {
    value = await run();
  } catch (err) {
    const message = errorMessage(err);
    log.error(`Tool ${name} failed: ${message}`);
    return { ok: false, message };
  }
  const text = textOf(value);
  const failure = text === undefined ? undefined : failureOf(text);
  if (failure !== undefined) {
    log.warn(`Tool ${name} failed: ${failure}`);
  } else {
    log.trace(`Tool ${name} completed successfully`);
  }
  return { ok: true, value };
}

export { failureOf };

/** What the listing says about a destructive tool's consent (`consent` in `Secretary.tools()`). */
export type { ConsentListing };

/**
 * The confirmation VS Code shows before a destructive tool runs (`confirmationMessages` of
 * `prepareInvocation`): the core's text from the listing (`confirmation`: what the tool does, why it
 * needs the user's explicit instruction, the literal the agent had to pass). `undefined` for other
 * tools. With a per-command consent (`consent.when`, memory's `delete`) and the call's `input`, only
 * a call that would destroy asks: that command with the literal (without it, the core refuses the
 * call anyway and there is nothing to confirm).
 */
export function confirmationFor(
  tool: Pick<ToolListing, 'confirmation' | 'consent'>,
  input?: Record<string, unknown>,
): { title: string; message: string } | undefined {
  const { confirmation, consent } = tool;
  if (!confirmation) {
    return undefined;
  }
  const when = consent?.when;
  if (when && input && (input[when.field] !== when.value || input[consent.field] !== consent.value)) {
    return undefined;
  }
  return { title: confirmation.title, message: confirmation.message };
}
