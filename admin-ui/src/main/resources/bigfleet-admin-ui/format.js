// Numbers, durations and times. Times show in UTC, like the provider's logs, with the local time on
// hover; durations count on the server's clock, so a browser whose clock is off still ticks right.

const clock = { offset: 0 };

/** Takes the server's "now" from an answer: durations count from it. */
export function syncClock(serverNowIso) {
  const t = Date.parse(serverNowIso);
  if (!Number.isNaN(t)) clock.offset = t - Date.now();
}

function serverNow() {
  return Date.now() + clock.offset;
}

export const usd = (v) => '$' + v.toFixed(v >= 100 ? 2 : 4);
export const count = (n) => n.toLocaleString('en-US');

export function duration(seconds) {
  if (seconds === null || seconds === undefined) return '–';
  if (seconds < 60) return seconds + 's';
  if (seconds < 3600) return Math.floor(seconds / 60) + 'm ' + (seconds % 60) + 's';
  if (seconds < 86400) {
    return Math.floor(seconds / 3600) + 'h ' + Math.floor((seconds % 3600) / 60) + 'm ' + (seconds % 60) + 's';
  }
  return Math.floor(seconds / 86400) + 'd ' + Math.floor((seconds % 86400) / 3600) + 'h';
}

export function bytes(n) {
  const gib = n / (1024 * 1024 * 1024);
  return gib >= 1 ? gib.toFixed(gib >= 100 ? 0 : 1) + ' GiB' : Math.round(n / (1024 * 1024)) + ' MiB';
}

/** "2026-12-01 14:03:07 UTC" */
export function utc(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '–' : d.toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
}

function local(iso) {
  return 'your local time: ' + new Date(iso).toLocaleString(undefined, { timeZoneName: 'short' });
}

/** A time in UTC; hovering it shows the local time. */
export function timeEl(iso) {
  const t = document.createElement('time');
  if (!iso) {
    t.textContent = '–';
    return t;
  }
  t.dateTime = iso;
  t.textContent = utc(iso);
  t.title = local(iso);
  return t;
}

function secondsSince(iso) {
  return Math.max(0, Math.floor((serverNow() - Date.parse(iso)) / 1000));
}

/**
 * The time since {@code iso}, kept current by {@link tick} every second; {@code suffix} follows it
 * (" ago"). Hovering it shows when that was, in UTC and local time.
 */
export function since(iso, suffix) {
  const s = document.createElement('span');
  s.className = 'ticking';
  if (!iso) {
    s.textContent = '–';
    return s;
  }
  s.dataset.since = iso;
  s.dataset.suffix = suffix || '';
  s.title = 'since ' + utc(iso) + '; ' + local(iso);
  s.textContent = duration(secondsSince(iso)) + s.dataset.suffix;
  return s;
}

/** Moves every duration on the page on by the time that passed. */
export function tick() {
  document.querySelectorAll('[data-since]').forEach((s) => {
    s.textContent = duration(secondsSince(s.dataset.since)) + s.dataset.suffix;
  });
}
