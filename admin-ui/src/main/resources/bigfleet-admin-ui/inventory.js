// The inventory's summaries: counts by state and zone, offerings, failures, instance types, nodes.

import { $, attentionBadge, el, emptyRow, fillSelect, meter, td } from './dom.js';
import { bytes, count, since, timeEl, usd } from './format.js';

export const STATES = ['SPECULATIVE', 'CREATING', 'IDLE', 'CONFIGURING', 'CONFIGURED', 'DRAINING', 'DELETING', 'FAILED'];

export function renderSummary(s) {
  // epoch 0: no replicas (SQLite state), the role alone says so
  $('replica-role').textContent = s.epoch === 0 ? s.role
    : s.role + ' · epoch ' + s.epoch + (s.role === 'standby' && s.leader ? ' · leader ' + s.leader : '');
  $('stat-machines').textContent = count(s.machines);
  $('stat-holding').textContent = count(s.holding_vm);
  $('stat-cost').textContent = usd(s.hourly_cost_usd) + '/h';
  $('stat-failed').textContent = count(s.states.FAILED || 0);

  const chart = $('zone-chart');
  chart.replaceChildren();
  const widest = Math.max(1, ...s.zones.map((z) => z.total));
  s.zones.forEach((z) => {
    chart.appendChild(el('div', 'zone', z.zone));
    const bar = el('div', 'bar');
    bar.dataset.zone = z.zone;
    STATES.forEach((state) => {
      const n = z.states[state] || 0;
      if (n === 0) return;
      const seg = el('span', 's-' + state);
      seg.style.width = (100 * n) / widest + '%';
      seg.title = z.zone + ' · ' + state + ': ' + count(n);
      bar.appendChild(seg);
    });
    chart.appendChild(bar);
    chart.appendChild(el('div', 'total', count(z.total)));
  });
  if (s.zones.length === 0) chart.appendChild(el('div', 'empty', 'no machines'));

  const legend = $('state-legend');
  legend.replaceChildren();
  STATES.forEach((state) => legend.appendChild(el('span', 's-' + state, state + ' ' + count(s.states[state] || 0))));

  fillSelect($('filter-state'), STATES);
  fillSelect($('filter-zone'), s.zones.map((z) => z.zone));
  fillSelect($('filter-type'), s.instance_types);
}

export function renderOfferings(rows) {
  const body = $('offerings-table').tBodies[0];
  body.replaceChildren();
  rows.forEach((o) => {
    const tr = el('tr');
    tr.dataset.offering = o.instance_type + '/' + o.zone;
    tr.appendChild(td(o.instance_type));
    tr.appendChild(td(o.zone));
    tr.appendChild(td(count(o.count), 'num'));
    tr.appendChild(td(count(o.holding_vm), 'num'));
    tr.appendChild(td(count(o.free), 'num free'));
    tr.appendChild(td(count(o.used), 'num used'));
    tr.appendChild(td(count(o.failed), 'num failed'));
    tr.appendChild(td(meter([
      { n: o.used, cls: '', title: 'used' },
      { n: o.failed, cls: 'hot', title: 'failed' },
      { n: o.free, cls: 'free', title: 'free' },
    ], o.machines, count(o.free) + ' free · ' + count(o.used) + ' used · ' + count(o.failed) + ' failed')));
    tr.appendChild(td(usd(o.price_per_hour), 'num'));
    body.appendChild(tr);
  });
  if (rows.length === 0) body.appendChild(emptyRow(9, 'no offerings'));
}

export function renderFailures(rows, open) {
  const list = $('failures');
  list.replaceChildren();
  rows.forEach((m) => {
    const li = el('li');
    li.dataset.id = m.id;
    const id = el('span', 'mono');
    id.appendChild(open(m.id));
    if (m.needs_attention) id.appendChild(attentionBadge());
    li.appendChild(id);
    const when = el('span', 'when');
    if (m.state_since) when.appendChild(since(m.state_since, ' ago'));
    li.appendChild(when);
    li.appendChild(el('span', 'msg', m.last_error || '(no error text)'));
    list.appendChild(li);
  });
  if (rows.length === 0) list.appendChild(el('li', 'empty', 'no failed machines'));
}

export function renderTypes(rows) {
  const body = $('types-table').tBodies[0];
  body.replaceChildren();
  rows.forEach((t) => {
    const tr = el('tr');
    tr.appendChild(td(t.name));
    tr.appendChild(td(t.vcpu, 'num'));
    tr.appendChild(td(t.memory_mib % 1024 === 0 ? t.memory_mib / 1024 + ' GiB' : t.memory_mib + ' MiB', 'num'));
    tr.appendChild(td(t.template_vmid, 'num'));
    tr.appendChild(td(usd(t.price_per_hour), 'num'));
    tr.appendChild(td(el('span', 'pill ' + t.price_source, t.price_source)));
    body.appendChild(tr);
  });
}

function share(used, total) {
  return total > 0 ? used / total : 0;
}

function heat(part) {
  return part > 0.9 ? 'hot' : part > 0.7 ? 'warn' : '';
}

export function renderNodes(list) {
  const body = $('nodes-table').tBodies[0];
  body.replaceChildren();
  list.nodes.forEach((n) => {
    const tr = el('tr');
    tr.dataset.node = n.name;
    tr.appendChild(td(n.name));
    const status = td(n.status, 'node-' + n.status);
    if (n.status === 'unknown') status.title = 'the Proxmox API cannot be reached: the last answer may be stale';
    // online yet taking no new VM (HA maintenance, no quorum): Creates for it fail fast
    if (n.status === 'online' && n.schedulable === false) {
      tr.dataset.unschedulable = 'true';
      status.appendChild(el('span', 'hint warn unschedulable', ' · no new VMs'));
      status.title = n.unschedulable_reason || 'takes no new VMs';
    }
    tr.appendChild(status);
    tr.appendChild(td(n.vms, 'num'));
    tr.appendChild(td(meter([{ n: n.vcpu_allocated, cls: heat(share(n.vcpu_allocated, n.cpu_total)) }],
      n.cpu_total, n.vcpu_allocated + ' / ' + n.cpu_total)));
    tr.appendChild(td(meter([{ n: n.memory_used_bytes, cls: heat(share(n.memory_used_bytes, n.memory_total_bytes)) }],
      n.memory_total_bytes, bytes(n.memory_used_bytes) + ' / ' + bytes(n.memory_total_bytes))));
    // the storages this node's clones are written to; 0 of 0 when the backend does not report them
    tr.appendChild(n.storage_total_bytes > 0
      ? td(meter([{ n: n.storage_used_bytes, cls: heat(share(n.storage_used_bytes, n.storage_total_bytes)) }],
        n.storage_total_bytes, bytes(n.storage_used_bytes) + ' / ' + bytes(n.storage_total_bytes)))
      : td('—'));
    body.appendChild(tr);
  });
  if (list.nodes.length === 0) body.appendChild(emptyRow(6, list.error ? 'node list unavailable' : 'no nodes'));
  const read = $('nodes-read');
  if (list.error) {
    read.textContent = '· ' + list.error;
  } else {
    read.replaceChildren(el('span', null, '· read '), timeEl(list.read_at));
  }
}
