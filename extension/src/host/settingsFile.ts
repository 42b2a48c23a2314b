// A VS Code settings file (JSONC: comments and trailing commas) read outside VS Code, with
// Microsoft's own scanner and parser (`jsonc-parser`, the one VS Code uses).
import { parseTree, type Node, type ParseError } from 'jsonc-parser';

import { READ_CAPS, readBounded } from './boundedRead';
import { errorMessage } from '../log';

/**
 * A VS Code settings file as an object: `{}` when it is missing, unreadable, not JSONC, has any
 * syntax error, or holds something other than an object. A workspace's file is hostile input: a
 * link to `/dev/zero` or `/dev/stdin`, a FIFO or a file over `READ_CAPS.settings` is refused at once
 * (`onRefused` says why), never read without end.
 */
export function readSettings(file: string, onRefused?: (why: string) => void): Record<string, unknown> {
  let text: string;
  try {
    text = readBounded(file, { maxBytes: READ_CAPS.settings }).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      onRefused?.(errorMessage(err));
    }
    return {};
  }
  return parseSettings(text);
}

/** JSONC text of a settings file as an object (`{}` for anything else; see `readSettings`). */
function parseSettings(text: string): Record<string, unknown> {
  try {
    const errors: ParseError[] = [];
    const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
    if (errors.length > 0 || tree?.type !== 'object') {
      return {};
    }
    return valueOf(tree) as Record<string, unknown>;
  } catch {
    // A nesting too deep for the parser's recursion (RangeError): not a settings file.
    return {};
  }
}

/**
 * The value of a parsed node, built as `JSON.parse` builds it: every key an own property (a key
 * `__proto__` is data, never the object's prototype), the last of duplicate keys winning.
 */
function valueOf(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key && value) {
          Object.defineProperty(out, String(key.value), { value: valueOf(value), enumerable: true, writable: true, configurable: true });
        }
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map(valueOf);
    default:
      return node.value as unknown;
  }
}
