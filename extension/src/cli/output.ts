// What the command line does when the reader of its output goes away (`secretary tools | head -1`).

/**
 * Ends the process quietly (exit 0, no stack trace) when stdout's reader closes the pipe: writing
 * then fails with `EPIPE`, which Node reports as an unhandled `error` event, a stack trace and exit 1.
 * `head` has what it asked for; nobody reads what would follow. Other errors keep Node's handling.
 */
export function exitQuietlyWhenOutputCloses(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') {
      process.exit(0);
    }
    throw err;
  });
}
