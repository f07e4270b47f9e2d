// The header: version, uptime, backend, Proxmox API status, last reconcile; and the red banner while
// the backend reports its API unreachable.

import { $, el, td } from './dom.js';
import { count, since, syncClock, timeEl } from './format.js';

export function renderStatus(s) {
  syncClock(s.now);
  $('provider-label').textContent = s.provider;
  $('version').textContent = s.version;
  $('uptime').replaceChildren(since(s.started_at, ''));
  $('backend-name').textContent = s.backend;
  renderApi(s.api);
  renderReconcile(s);
  const attention = $('stat-attention');
  attention.textContent = s.needs_attention > 0 ? count(s.needs_attention) + ' need attention' : '';
  attention.classList.toggle('warn', s.needs_attention > 0);
  renderRebuild(s.rebuild);
}

// The machines the last startup rebuilt from their VMs, when the store and the cluster disagreed.
function renderRebuild(rebuild) {
  const panel = $('rebuild');
  panel.hidden = !rebuild;
  if (!rebuild) return;
  $('rebuild-when').replaceChildren(el('span', null, 'at '), timeEl(rebuild.at));
  const rows = rebuild.decisions.map((d) => {
    const row = el('tr');
    row.append(td(d.machine_id, 'mono'), td(d.host, 'mono'), td(d.was), td(d.as), td(d.why));
    return row;
  });
  $('rebuild-table').tBodies[0].replaceChildren(...rows);
}

function renderApi(api) {
  const cell = $('api-status');
  const banner = $('outage');
  if (!api) {
    cell.className = 'api muted';
    cell.textContent = 'not reported';
    cell.title = 'this backend does not report whether an API answers';
    banner.hidden = true;
    return;
  }
  cell.className = 'api ' + (api.reachable ? 'up' : 'down');
  cell.textContent = api.reachable ? 'reachable' : 'unreachable';
  cell.title = (api.reachable ? 'reachable' : 'unreachable') + ' since ' + new Date(api.since).toISOString()
    + (api.breaker_open ? '; circuit breaker open' : '');
  banner.hidden = api.reachable;
  if (!api.reachable) {
    const sinceCell = $('outage-since');
    sinceCell.replaceChildren(el('span', null, 'since '), timeEl(api.since), el('span', null, ' ('),
      since(api.since, ' ago'), el('span', null, '):'));
    $('outage-error').textContent = api.last_error || 'no error text';
    $('outage-breaker').textContent = api.breaker_open
      ? 'The circuit breaker is open: calls fail fast without being sent. Transitions wait and retry until their deadlines.'
      : 'Transitions wait and retry until their deadlines.';
  }
}

function renderReconcile(s) {
  const cell = $('last-reconcile');
  if (s.last_reconcile_success) {
    cell.replaceChildren(since(s.last_reconcile_success, ' ago'));
  } else {
    cell.textContent = s.reconcile_interval_seconds === null ? 'off' : 'none yet';
  }
  cell.title = s.reconcile_interval_seconds === null
    ? 'the reconcile loop is off (--reconcile-interval 0)'
    : 'the last reconcile pass that succeeded; one runs every ' + s.reconcile_interval_seconds + 's';
}

export function renderRevision(revision) {
  $('revision').textContent = String(revision);
}
