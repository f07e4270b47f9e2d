// What the page shows (filters, sort, search, page, the open machine), kept in the address bar so a
// view can be bookmarked, shared and reloaded.

const SORTS = ['id', 'state', 'zone', 'instance_type', 'host', 'cluster', 'price_per_hour', 'density',
  'time_in_state', 'last_error'];
const LIMITS = [25, 50, 100, 500];
const DEFAULTS = { state: '', zone: '', type: '', q: '', sort: 'id', order: 'asc', offset: 0, limit: 50, machine: '' };

export const view = { ...DEFAULTS };

function whole(text, fallback) {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** Reads the view from the address bar; anything unreadable falls back to its default. */
export function readUrl() {
  const p = new URLSearchParams(window.location.search);
  view.state = p.get('state') || '';
  view.zone = p.get('zone') || '';
  view.type = p.get('instance_type') || '';
  view.q = p.get('q') || '';
  view.sort = SORTS.includes(p.get('sort')) ? p.get('sort') : DEFAULTS.sort;
  view.order = p.get('order') === 'desc' ? 'desc' : 'asc';
  view.limit = LIMITS.includes(whole(p.get('limit'), 0)) ? whole(p.get('limit'), 0) : DEFAULTS.limit;
  view.offset = whole(p.get('offset'), 0);
  view.machine = p.get('machine') || '';
}

function params(includeMachine) {
  const p = new URLSearchParams();
  const put = (k, v, dflt) => { if (v !== dflt) p.set(k, String(v)); };
  put('state', view.state, '');
  put('zone', view.zone, '');
  put('instance_type', view.type, '');
  put('q', view.q, '');
  put('sort', view.sort, DEFAULTS.sort);
  put('order', view.order, DEFAULTS.order);
  put('offset', view.offset, 0);
  put('limit', view.limit, DEFAULTS.limit);
  if (includeMachine) put('machine', view.machine, '');
  return p;
}

/** The address of the current view; {@code push} makes it a history entry (Back undoes it). */
export function writeUrl(push) {
  const query = params(true).toString();
  const url = window.location.pathname + (query ? '?' + query : '');
  if (url === window.location.pathname + window.location.search) return;
  if (push) window.history.pushState(null, '', url);
  else window.history.replaceState(null, '', url);
}

/** The address of the view with {@code machine} open, for its link. */
export function machineHref(machine) {
  const p = params(false);
  p.set('machine', machine);
  return window.location.pathname + '?' + p.toString();
}

/** The machine table's query: always sort, order, offset and limit, filters when set. */
export function machinesApiUrl() {
  const p = new URLSearchParams();
  if (view.state) p.set('state', view.state);
  if (view.zone) p.set('zone', view.zone);
  if (view.type) p.set('instance_type', view.type);
  if (view.q) p.set('q', view.q);
  p.set('sort', view.sort);
  p.set('order', view.order);
  p.set('offset', String(view.offset));
  p.set('limit', String(view.limit));
  return '/api/v1/machines?' + p.toString();
}
