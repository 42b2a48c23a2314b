// Setting values as they are read, checked. VS Code does not hold a value to the manifest's schema
// when it is read: a hand-edited settings file (or a repository's `.vscode/settings.json`) can put
// any JSON there, and a string where a list belongs made activation throw (`"x".filter`).

/** The strings of a list setting, empty ones dropped; anything but a list reads as an empty list. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}

/** A number setting within `[min, max]`; anything but a finite number reads as `fallback`. (A
 * `setTimeout` of more than 2^31 - 1 ms fires at once, and one of weeks never does.) */
export function numberIn(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

/** A boolean setting; anything but `true` or `false` reads as `fallback` (the string "false" is not true). */
export function flag(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}
