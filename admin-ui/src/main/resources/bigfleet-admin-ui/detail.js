// One machine in full: its fields, why it failed, and its recent operations from the state store.

import { get } from './api.js';
import { $, attentionBadge, el, stateBadge, td } from './dom.js';
import { duration, since, timeEl } from './format.js';
import { hostCell } from './machines.js';

function field(list, name, value) {
  const row = el('div');
  row.appendChild(el('dt', null, name));
  const dd = el('dd');
  if (value instanceof Node) dd.appendChild(value);
  else dd.textContent = value === undefined || value === null || value === '' ? '–' : String(value);
  row.appendChild(dd);
  list.appendChild(row);
}

const pairs = (map) => Object.entries(map).map(([k, v]) => k + '=' + v).join(', ');

function renderFields(m) {
  const list = $('detail-fields');
  list.replaceChildren();
  const state = el('span');
  state.appendChild(stateBadge(m.state));
  if (m.needs_attention) state.appendChild(attentionBadge());
  field(list, 'state', state);
  field(list, 'in state', m.state_since ? since(m.state_since, '') : null);
  field(list, 'since', m.state_since ? timeEl(m.state_since) : null);
  field(list, 'zone', m.zone);
  field(list, 'instance type', m.instance_type);
  field(list, 'capacity', m.capacity_type);
  field(list, 'host', hostCell(m));
  field(list, 'cluster', m.cluster);
  field(list, '$/h', m.price_per_hour.toFixed(4));
  field(list, 'density', m.density);
  field(list, 'allocatable', pairs(m.allocatable));
  field(list, 'resources', pairs(m.resources));
  field(list, 'labels', pairs(m.labels));
  field(list, 'last error', m.last_error);
}

function renderFailure(f) {
  const box = $('detail-failure');
  box.hidden = !f;
  box.replaceChildren();
  if (!f) return;
  box.appendChild(el('span', null, 'Failed in ' + f.kind + ' at '));
  box.appendChild(timeEl(f.failed_at));
  box.appendChild(el('span', null, f.bound
    ? '. Its VM may be a live node: the cleanup drains it before destroying it.'
    : '. The cleanup destroys its VM, if any, and makes the slot free again.'));
  box.appendChild(el('span', null, ' Cleanups tried: ' + f.cleanup_attempts + '.'));
  if (f.next_cleanup) {
    box.appendChild(el('span', null, ' Next cleanup not before '));
    box.appendChild(timeEl(f.next_cleanup));
    box.appendChild(el('span', null, '.'));
  } else {
    box.appendChild(el('span', null, ' FAILED machines are kept (--failed-retention 0).'));
  }
  if (f.needs_attention) box.appendChild(attentionBadge());
}

function renderOperations(ops) {
  const body = $('operations-table').tBodies[0];
  body.replaceChildren();
  ops.forEach((op) => {
    const tr = el('tr');
    tr.dataset.operation = op.operation_id;
    tr.dataset.outcome = op.outcome;
    tr.appendChild(td(op.kind));
    tr.appendChild(td(op.operation_id, 'mono'));
    tr.appendChild(td(timeEl(op.started_at)));
    tr.appendChild(td(op.ended_at ? timeEl(op.ended_at) : 'running'));
    const running = op.outcome === 'running' && op.started_at;
    tr.appendChild(td(running ? since(op.started_at, '') : duration(op.duration_seconds), 'num'));
    tr.appendChild(td(el('span', 'outcome o-' + op.outcome, op.outcome)));
    tr.appendChild(td(op.error, 'err'));
    body.appendChild(tr);
  });
  if (ops.length === 0) {
    const tr = el('tr');
    const cell = el('td', 'empty', 'no operation recorded');
    cell.colSpan = 7;
    tr.appendChild(cell);
    body.appendChild(tr);
  }
}

/** Shows machine {@code id}; a machine the inventory does not hold says so. */
export async function showDetail(id) {
  const panel = $('detail');
  panel.hidden = false;
  $('detail-id').textContent = id;
  let m;
  try {
    m = await get('/api/v1/machines/' + id.split('/').map(encodeURIComponent).join('/'));
  } catch (e) {
    if (e.status !== 404) throw e;
    $('detail-missing').hidden = false;
    $('detail-fields').replaceChildren();
    renderFailure(null);
    renderOperations([]);
    return;
  }
  $('detail-missing').hidden = true;
  renderFields(m);
  renderFailure(m.failure);
  renderOperations(m.operations);
}

export function hideDetail() {
  $('detail').hidden = true;
}
