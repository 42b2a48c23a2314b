/**
 * One agent turn of `secretary copilot-ls --prompt` as the language server reports it: the
 * `$/progress` values of the turn's `workDoneToken` (checked against 1.539.0, `dist/main.js`):
 * `{kind: "begin", conversationId, turnId}`, then `{kind: "report", editAgentRounds: [{roundId,
 * reply, toolCalls?: [{id, name, status, error?, progressMessage?}]}]}` (a round's `reply` is the
 * text streamed since the last report; a tool call is reported again on every change of its
 * status), and `{kind: "end", error?: {message, code?}}`. Every field comes from another process
 * and is checked before use.
 */

/** A tool call as the turn reports it. `status`: `running`, `completed`, `error`, `cancelled`. */
export interface ToolCallEvent {
  id: string;
  name: string;
  status: string;
  error?: string;
}

/** What the terminal is told while a turn runs. */
export interface TurnSink {
  /** A tool call changed its status. */
  toolCall(event: ToolCallEvent): void;
  /** More reply text. */
  reply(text: string): void;
}

/** The end of a turn: the reply text and, for a failed turn, the server's error. */
export interface TurnOutcome {
  conversationId?: string;
  turnId?: string;
  reply: string;
  error?: string;
}

/** Reads one turn's `$/progress` values, passes tool calls (once per status) and reply text on
 * to `sink`, and keeps the reply and the error. */
export class TurnProgress {
  private readonly statuses = new Map<string, string>();
  private text = '';
  private failure: string | undefined;
  private ids: { conversationId?: string; turnId?: string } = {};

  constructor(private readonly sink: TurnSink) {}

  /** One `$/progress` value. */
  accept(value: unknown): void {
    if (!isObject(value)) {
      return;
    }
    if (typeof value.conversationId === 'string') {
      this.ids.conversationId = value.conversationId;
    }
    if (typeof value.turnId === 'string') {
      this.ids.turnId = value.turnId;
    }
    const rounds = Array.isArray(value.editAgentRounds) ? value.editAgentRounds : [];
    for (const round of rounds) {
      if (!isObject(round)) {
        continue;
      }
      for (const call of Array.isArray(round.toolCalls) ? round.toolCalls : []) {
        this.toolCall(call);
      }
      if (typeof round.reply === 'string' && round.reply && value.hideText !== true) {
        this.text += round.reply;
        this.sink.reply(round.reply);
      }
    }
    if (typeof value.reply === 'string' && value.reply && !rounds.length) {
      this.text += value.reply;
      this.sink.reply(value.reply);
    }
    if (value.kind === 'end') {

      const error = errorText(value.error);
      if (error) {
        this.failure = error;
      } else if (typeof value.cancellationReason === 'string') {
        this.failure = `the turn was cancelled (${value.cancellationReason})`;
      }
    }
  }

  /** The turn as it ended; `result` is the answer to `conversation/create` or `conversation/turn`. */
  outcome(result: unknown): TurnOutcome {
    const answer = isObject(result) ? result : {};
    return {
      conversationId: typeof answer.conversationId === 'string' ? answer.conversationId : this.ids.conversationId,
      turnId: typeof answer.turnId === 'string' ? answer.turnId : this.ids.turnId,
      reply: this.text,
      error: this.failure,
    };
  }

  private toolCall(call: unknown): void {
    if (!isObject(call) || typeof call.id !== 'string' || typeof call.name !== 'string' || typeof call.status !== 'string') {
      return;
    }
    if (this.statuses.get(call.id) === call.status) {
      return;
    }
    this.statuses.set(call.id, call.status);
    const error = errorText(call.error);
    this.sink.toolCall({ id: call.id, name: call.name, status: call.status, ...(error ? { error } : {}) });
  }
}

/** A terminal sink: tool calls as lines on `status` (stderr), the reply streamed to `out` (stdout). */
export function terminalSink(out: NodeJS.WritableStream, status: NodeJS.WritableStream): TurnSink & { endReply(): void } {
  let open = false;
  let endsWithNewline = true;
  return {
    toolCall(event) {
      const mark = event.status === 'completed' ? '✓' : event.status === 'error' || event.status === 'cancelled' ? '✗' : '…';
      status.write(`${mark} ${oneLine(event.name)}: ${oneLine(event.status)}${event.error ? `: ${oneLine(event.error)}` : ''}\n`);
    },
    reply(text) {
      // Escape sequences in the model's text never reach the terminal; line breaks and tabs do
      // (every control character, Unicode's Cc, except \t and \n).
      const clean = text.replace(/[^\P{Cc}\t\n]/gu, '');
      open = true;
      endsWithNewline = clean.endsWith('\n');
      out.write(clean);
    },
    endReply() {
      if (open && !endsWithNewline) {
        out.write('\n');
      }
      open = false;
      endsWithNewline = true;
    },
  };
}

function errorText(error: unknown): string | undefined {
  if (typeof error === 'string') {
    return error || undefined;
  }
  if (isObject(error) && typeof error.message === 'string' && error.message) {
    return typeof error.code === 'number' || typeof error.code === 'string' ? `${error.message} (${error.code})` : error.message;
  }
  return undefined;
}

/** Control characters (an escape sequence from the wire) never reach the terminal. */
function oneLine(text: string): string {
  return text.replace(/\p{Cc}+/gu, ' ').slice(0, 500);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
