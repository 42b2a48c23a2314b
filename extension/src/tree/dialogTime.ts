/**
 * Plain functions of the sidebar, without `vscode` so unit tests run them in Node: the date
 * groups, relative times and the URI VS Code's chat opens a local session by.
 */

/** The sections of the Dialogs view, newest first. */
export const DATE_GROUPS = ['Today', 'Yesterday', 'This week', 'Older'] as const;
export type DateGroup = (typeof DATE_GROUPS)[number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Midnight (local time) of the day `ms` falls in. */
function startOfDay(ms: number): number {
  const date = new Date(ms);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

/** Which section a dialog last active at `ms` belongs to, seen at `now` (local days): today (a
 * time in the future, from another machine's clock, too), yesterday, the five days before
 * ("This week": seven days with today), or older; a dialog without a time is "Older". */
export function dateGroup(ms: number | undefined, now: number): DateGroup {
  if (ms === undefined || !Number.isFinite(ms)) {
    return 'Older';
  }
  const today = startOfDay(now);
  if (ms >= today) {
    return 'Today';
  }
  const yesterday = startOfDay(today - 1);
  if (ms >= yesterday) {
    return 'Yesterday';
  }
  // An hour into the day six days ago, then back to its midnight: right across a DST change.
  return ms >= startOfDay(today - 6 * DAY + HOUR) ? 'This week' : 'Older';
}

/** "just now", "5 min ago", "2 h ago", "3 d ago", then the date ("Oct 14" this year, "Oct 2024"
 * before): short enough for a row in the default sidebar width (the tooltip has the full time). */
export function relativeTime(ms: number | undefined, now: number): string {
  if (ms === undefined || !Number.isFinite(ms)) {
    return 'no time';
  }
  const ago = now - ms;
  if (ago < MINUTE) {
    return 'just now';
  }
  if (ago < HOUR) {
    return `${Math.floor(ago / MINUTE)} min ago`;
  }
  if (ago < DAY) {
    return `${Math.floor(ago / HOUR)} h ago`;
  }
  if (ago < 7 * DAY) {
    return `${Math.floor(ago / DAY)} d ago`;
  }
  const date = new Date(ms);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return date.toLocaleDateString('en-US', sameYear ? { month: 'short', day: 'numeric' } : { month: 'short', year: 'numeric' });
}

/** The full local date and time, for tooltips. */
export function absoluteTime(ms: number | undefined): string {
  return ms === undefined || !Number.isFinite(ms) ? 'unknown time' : new Date(ms).toLocaleString();
}

/** The resource VS Code's chat opens a local session by: `vscode-chat-session://local/<id>`,
 * the session id as UTF-8 in base64url without padding (as VS Code's `LocalChatSessionUri`). */
export function chatSessionUri(sessionId: string): string {
  const encoded = Buffer.from(sessionId, 'utf8').toString('base64url').replace(/=+$/, '');
  return `vscode-chat-session://local/${encoded}`;
}

/** A one-line title of at most `max` characters, cut at a word when one is near. */
export function shortTitle(title: string, max = 48): string {
  const line = title.replace(/\s+/g, ' ').trim() || 'Untitled dialog';
  if (line.length <= max) {
    return line;
  }
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
