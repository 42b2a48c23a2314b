// The Node bridge's path rules, its second line of defence after the core's own checks
// (`host::check_rel_path`): relative `/` paths only, and nothing that could leave an area's root.
import * as path from 'path';

import { HostError, READ_ONLY_AREAS, type AreaName } from './bridge';

/** The segments of a relative path; throws `SECRETARY_PATH_REFUSED` for anything else. */
export function checkRelative(rel: string, allowRoot = false): string[] {
  const refuse = (why: string): never => {
    throw new HostError('SECRETARY_PATH_REFUSED', `Path ${JSON.stringify(rel)} refused: ${why}`);
  };
  if (typeof rel !== 'string') {
    return refuse('not a string');
  }
  if (rel === '' || rel === '.') {
    return allowRoot ? [] : refuse('it is empty');
  }
  // C0 controls: Unicode's Cc less DEL and the C1 range.
  if (/[^\P{Cc}\x7f-\x9f]/u.test(rel)) {
    refuse('it contains a control character');
  }
  if (rel.includes('\\')) {
    refuse('use / to separate folders');
  }
  if (rel.startsWith('/') || rel.startsWith('~') || /^[A-Za-z]:/.test(rel) || path.isAbsolute(rel)) {
    refuse('it must be relative');
  }
  const segments = rel.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') {
      refuse('empty, `.` and `..` folder names are not allowed');
    }
  }
  return segments;
}

/** The cargo registry sources and the bundled docs are only read. */
export function refuseReadOnly(area: AreaName, rel: string): void {
  if (READ_ONLY_AREAS.has(area)) {
    throw new HostError('SECRETARY_PATH_REFUSED', `Path ${JSON.stringify(rel)} refused: ${describeArea(area)} are read-only`);
  }
}

/** Whether `candidate` is `root` or lies under it (both real, absolute paths). */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) {
    return true;
  }
  const withSep = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(withSep);
}

/** Whether a file system error says the path (or a folder on the way) does not exist. */
export function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** An area as the failures name it. */
export function describeArea(area: AreaName): string {
  switch (area) {
    case 'workspace':
      return 'the workspace folder';
    case 'workspaceState':
      return "this workspace's state folder";
    case 'globalState':
      return 'the global state folder';
    case 'cargoRegistry':
      return 'the cargo registry sources';
    case 'bundled':
      return 'the bundled library docs';
  }
}
