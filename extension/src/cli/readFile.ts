import * as fs from 'fs';

/**
 * Reads a file the user named, refusing anything that is not a regular file and anything larger
 * than `maxBytes`: checked on the open descriptor before reading (so a symlink to `/dev/zero`, a
 * FIFO or a socket is refused at once, and a FIFO's open does not wait for a writer) and again
 * while reading (a file that grows past the cap meanwhile is refused, not read to the end).
 * Throws an error whose message says why.
 */
export function readRegularFile(file: string, maxBytes: number): Buffer {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) {
      throw new Error(`${file} is not a regular file (${kindOf(stat)})`);
    }
    if (stat.size > maxBytes) {
      throw new Error(`${file} is larger than ${maxBytes} bytes (${stat.size} bytes)`);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1 - total));
      const read = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) {
        break;
      }
      total += read;
      if (total > maxBytes) {
        throw new Error(`${file} grew past ${maxBytes} bytes while it was read`);
      }
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks, total);
  } finally {
    fs.closeSync(fd);
  }
}

function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) {
    return 'a folder';
  }
  if (stat.isFIFO()) {
    return 'a FIFO';
  }
  if (stat.isCharacterDevice() || stat.isBlockDevice()) {
    return 'a device';
  }
  if (stat.isSocket()) {
    return 'a socket';
  }
  return 'not a file';
}
