// Atomic replacement of a file: a crash leaves the old file or the new one, never a mix.
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import { removeOrphanTemps } from './lockFile';

/**
 * Writes `bytes` to a temporary file in the target's folder, `fsync`s it, renames it over `target`
 * and `fsync`s the folder, then removes temporary files older than a minute (a crash's leftovers).
 * `beforeRename` (tests only) runs between the write and the rename.
 */
export function writeFileAtomic(target: string, bytes: Uint8Array, beforeRename?: (tempPath: string, target: string) => void): void {
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = fs.openSync(temp, 'wx');
    try {
      let offset = 0;
      while (offset < bytes.length) {
        offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
      }
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    beforeRename?.(temp, target);
    fs.renameSync(temp, target);
  } catch (err) {
    try {
      fs.unlinkSync(temp);
    } catch {
      // Already renamed or never created.
    }
    throw err;
  }
  syncDir(dir);
  removeOrphanTemps(dir);
}

function syncDir(dir: string): void {
  // Makes the rename itself durable; not possible on every platform (Windows), hence best effort.
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Best effort.
  }
}
