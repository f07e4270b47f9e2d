// The machine table: one page of /api/v1/machines, filtered, sorted and paged on the server.

import { $, attentionBadge, el, emptyRow, stateBadge, td } from './dom.js';
import { count, since } from './format.js';
import { view } from './view.js';

/**
 * The host cell: node/VMID, a link to the VM in the Proxmox web UI when the backend has one, and
 * the static addresses of its NICs when it has any, and a mark when its template changed since
 * its clone.
 */
export function hostCell(m) {
  if (!m.host) return document.createTextNode('–');
  let vm;
  if (!m.proxmox_url) {
    vm = document.createTextNode(m.host);
  } else {
    vm = el('a', 'vm-link', m.host);
    vm.href = m.proxmox_url;
    vm.target = '_blank';
    vm.rel = 'noopener noreferrer';
    vm.title = 'open VM ' + m.host + ' in the Proxmox web UI';
  }
  const hasAddresses = m.addresses && m.addresses.length > 0;
  if (!hasAddresses && !m.template_drift) return vm;
  const cell = el('span');
  cell.appendChild(vm);
  if (m.template_drift) {
    const drift = el('span', 'drift', 'template changed');
    drift.title = m.template_drift;
    cell.appendChild(drift);
  }
  if (hasAddresses) {
    const addresses = el('span', 'addresses', m.addresses.join(', '));
    addresses.title = 'static addresses of the VM\'s NICs';
    cell.appendChild(addresses);
  }
  return cell;
}

export function renderMachines(page, open) {
  const body = $('machines-table').tBodies[0];
  body.replaceChildren();
  page.items.forEach((m) => {
    const tr = el('tr');
    tr.dataset.id = m.id;
    tr.dataset.state = m.state;
    tr.appendChild(td(open(m.id), 'mono'));
    const st = td(stateBadge(m.state));
    if (m.needs_attention) st.appendChild(attentionBadge());
    tr.appendChild(st);
    tr.appendChild(td(m.zone));
    tr.appendChild(td(m.instance_type));
    tr.appendChild(td(hostCell(m), 'mono'));
    tr.appendChild(td(m.cluster || '–'));
    tr.appendChild(td(m.price_per_hour.toFixed(4), 'num'));
    tr.appendChild(td(m.density === null ? '–' : m.density, 'num'));
    tr.appendChild(td(m.state_since ? since(m.state_since, '') : '–', 'num in-state'));
    tr.appendChild(td(m.last_error || '', 'err'));
    body.appendChild(tr);
  });
  if (page.items.length === 0) body.appendChild(emptyRow(10, 'no machine matches'));
  const last = page.offset + page.items.length;
  $('page-info').textContent = page.total === 0 ? '0 machines'
    : count(page.offset + 1) + '–' + count(last) + ' of ' + count(page.total);
  $('page-prev').disabled = page.offset === 0;
  $('page-next').disabled = last >= page.total;
  document.querySelectorAll('#machines-table th[data-sort]').forEach((th) => {
    th.classList.toggle('sorted-asc', th.dataset.sort === view.sort && view.order === 'asc');
    th.classList.toggle('sorted-desc', th.dataset.sort === view.sort && view.order === 'desc');
  });
}
