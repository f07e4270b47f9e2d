// The admin page: read-only views of /api/v1/, kept live by polling /api/v1/changes with the
// inventory's revision cursor. Every value is written with textContent, never as markup.
'use strict';

(function () {
  const POLL_MS = 1000;
  const NODES_MS = 10000;
  const STATES = ['SPECULATIVE', 'CREATING', 'IDLE', 'CONFIGURING', 'CONFIGURED', 'DRAINING', 'DELETING', 'FAILED'];

  const table = { sort: 'id', order: 'asc', offset: 0, limit: 50 };
  let cursor = null;
  let refreshing = null;

  const $ = (id) => document.getElementById(id);

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function td(text, cls) {
    return el('td', cls, text);
  }

  async function get(path) {
    const r = await fetch(path, { headers: { Accept: 'application/json' }, cache: 'no-store' });
    if (!r.ok) throw new Error(path + ': HTTP ' + r.status);
    return r.json();
  }

  const usd = (v) => '$' + v.toFixed(v >= 100 ? 2 : 4);
  const count = (n) => n.toLocaleString('en-US');

  function duration(seconds) {
    if (seconds === null || seconds === undefined) return '–';
    if (seconds < 60) return seconds + 's';
    if (seconds < 3600) return Math.floor(seconds / 60) + 'm ' + (seconds % 60) + 's';
    if (seconds < 86400) return Math.floor(seconds / 3600) + 'h ' + Math.floor((seconds % 3600) / 60) + 'm';
    return Math.floor(seconds / 86400) + 'd ' + Math.floor((seconds % 86400) / 3600) + 'h';
  }

  function bytes(n) {
    const gib = n / (1024 * 1024 * 1024);
    return gib >= 1 ? gib.toFixed(gib >= 100 ? 0 : 1) + ' GiB' : Math.round(n / (1024 * 1024)) + ' MiB';
  }

  function stateBadge(state) {
    return el('span', 'state s-' + state, state);
  }

  function meter(used, total, text, kind) {
    const m = el('div', 'meter');
    const track = el('div', 'track');
    const fill = el('div', 'fill' + (kind ? ' ' + kind : ''));
    fill.style.width = (total > 0 ? Math.min(100, (100 * used) / total) : 0) + '%';
    track.appendChild(fill);
    m.appendChild(track);
    m.appendChild(el('span', 'txt', text));
    return m;
  }

  function fillSelect(select, values) {
    const current = select.value;
    const known = new Set(Array.from(select.options).map((o) => o.value));
    values.forEach((v) => {
      if (!known.has(v)) select.appendChild(el('option', null, v));
    });
    select.value = current;
  }

  // ---- summary -------------------------------------------------------------------------

  function renderSummary(s) {
    $('provider-label').textContent = s.provider;
    $('backend-name').textContent = s.backend;
    $('replica-role').textContent = s.epoch === 0 ? s.role
      : s.role + ' · epoch ' + s.epoch + (s.role === 'standby' && s.leader ? ' · leader ' + s.leader : '');
    $('revision').textContent = 'rev ' + s.revision;
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
    cursor = cursor || s.cursor;
  }

  function renderOfferings(rows) {
    const body = $('offerings-table').tBodies[0];
    body.replaceChildren();
    rows.forEach((o) => {
      const tr = el('tr');
      tr.appendChild(td(o.instance_type));
      tr.appendChild(td(o.zone));
      tr.appendChild(td(count(o.count), 'num'));
      tr.appendChild(td(count(o.holding_vm), 'num'));
      tr.appendChild(td(count(o.free), 'num'));
      tr.appendChild(td(count(o.failed), 'num'));
      const used = o.machines - o.free;
      const cell = el('td');
      cell.appendChild(meter(used, o.machines, count(o.free) + ' free / ' + count(used) + ' used'));
      tr.appendChild(cell);
      tr.appendChild(td(usd(o.price_per_hour), 'num'));
      body.appendChild(tr);
    });
    if (rows.length === 0) body.appendChild(emptyRow(8, 'no offerings'));
  }

  function emptyRow(span, text) {
    const tr = el('tr');
    const cell = el('td', 'empty', text);
    cell.colSpan = span;
    tr.appendChild(cell);
    return tr;
  }

  // ---- machines ------------------------------------------------------------------------

  function machinesUrl() {
    const p = new URLSearchParams();
    const put = (k, v) => { if (v) p.set(k, v); };
    put('state', $('filter-state').value);
    put('zone', $('filter-zone').value);
    put('instance_type', $('filter-type').value);
    put('q', $('filter-q').value.trim());
    p.set('sort', table.sort);
    p.set('order', table.order);
    p.set('offset', table.offset);
    p.set('limit', table.limit);
    return '/api/v1/machines?' + p.toString();
  }

  function renderMachines(page) {
    const body = $('machines-table').tBodies[0];
    body.replaceChildren();
    page.items.forEach((m) => {
      const tr = el('tr');
      tr.dataset.id = m.id;
      tr.dataset.state = m.state;
      tr.appendChild(td(m.id, 'mono'));
      const st = el('td');
      st.appendChild(stateBadge(m.state));
      tr.appendChild(st);
      tr.appendChild(td(m.zone));
      tr.appendChild(td(m.instance_type));
      tr.appendChild(td(m.host || '–', 'mono'));
      tr.appendChild(td(m.cluster || '–'));
      tr.appendChild(td(m.price_per_hour.toFixed(4), 'num'));
      tr.appendChild(td(m.density === null ? '–' : m.density, 'num'));
      tr.appendChild(td(duration(m.time_in_state_seconds), 'num'));
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
      th.classList.toggle('sorted-asc', th.dataset.sort === table.sort && table.order === 'asc');
      th.classList.toggle('sorted-desc', th.dataset.sort === table.sort && table.order === 'desc');
    });
  }

  function renderFailures(rows) {
    const list = $('failures');
    list.replaceChildren();
    rows.forEach((m) => {
      const li = el('li');
      li.dataset.id = m.id;
      li.appendChild(el('span', 'mono', m.id));
      li.appendChild(el('span', 'when', m.time_in_state_seconds === null ? '' : duration(m.time_in_state_seconds) + ' ago'));
      li.appendChild(el('span', 'msg', m.last_error || '(no error text)'));
      list.appendChild(li);
    });
    if (rows.length === 0) list.appendChild(el('li', 'empty', 'no failed machines'));
  }

  // ---- catalog and nodes ---------------------------------------------------------------

  function renderTypes(rows) {
    const body = $('types-table').tBodies[0];
    body.replaceChildren();
    rows.forEach((t) => {
      const tr = el('tr');
      tr.appendChild(td(t.name));
      tr.appendChild(td(t.vcpu, 'num'));
      tr.appendChild(td(t.memory_mib % 1024 === 0 ? t.memory_mib / 1024 + ' GiB' : t.memory_mib + ' MiB', 'num'));
      tr.appendChild(td(t.template_vmid, 'num'));
      tr.appendChild(td(usd(t.price_per_hour), 'num'));
      const src = el('td');
      src.appendChild(el('span', 'pill ' + t.price_source, t.price_source));
      tr.appendChild(src);
      body.appendChild(tr);
    });
  }

  function renderNodes(list) {
    const body = $('nodes-table').tBodies[0];
    body.replaceChildren();
    list.nodes.forEach((n) => {
      const tr = el('tr');
      tr.appendChild(td(n.name));
      tr.appendChild(td(n.online ? 'online' : 'offline', n.online ? 'online' : 'offline'));
      tr.appendChild(td(n.vms, 'num'));
      const cpu = el('td');
      const cpuShare = n.cpu_total > 0 ? n.vcpu_allocated / n.cpu_total : 0;
      cpu.appendChild(meter(n.vcpu_allocated, n.cpu_total, n.vcpu_allocated + ' / ' + n.cpu_total,
        cpuShare > 0.9 ? 'hot' : cpuShare > 0.7 ? 'warn' : ''));
      tr.appendChild(cpu);
      const mem = el('td');
      const memShare = n.memory_total_bytes > 0 ? n.memory_used_bytes / n.memory_total_bytes : 0;
      mem.appendChild(meter(n.memory_used_bytes, n.memory_total_bytes,
        bytes(n.memory_used_bytes) + ' / ' + bytes(n.memory_total_bytes), memShare > 0.9 ? 'hot' : memShare > 0.7 ? 'warn' : ''));
      tr.appendChild(mem);
      const disk = el('td');
      if (n.storage_total_bytes > 0) {
        const diskShare = n.storage_used_bytes / n.storage_total_bytes;
        disk.appendChild(meter(n.storage_used_bytes, n.storage_total_bytes,
          bytes(n.storage_used_bytes) + ' / ' + bytes(n.storage_total_bytes), diskShare > 0.9 ? 'hot' : diskShare > 0.7 ? 'warn' : ''));
      } else {
        disk.textContent = '—';
      }
      tr.appendChild(disk);
      body.appendChild(tr);
    });
    if (list.nodes.length === 0) body.appendChild(emptyRow(6, list.error ? 'node list unavailable' : 'no nodes'));
    $('nodes-read').textContent = list.error ? '· ' + list.error : '· read ' + new Date(list.read_at).toLocaleTimeString();
  }

  // ---- refresh and live updates --------------------------------------------------------

  async function refreshMachines() {
    renderMachines(await get(machinesUrl()));
  }

  async function refreshAll() {
    const [summary, offerings, page, failures, nodes] = await Promise.all([
      get('/api/v1/summary'), get('/api/v1/offerings'), get(machinesUrl()), get('/api/v1/failures?limit=20'),
      get('/api/v1/nodes')]);
    renderSummary(summary);
    renderOfferings(offerings);
    renderMachines(page);
    renderFailures(failures);
    renderNodes(nodes);
  }

  /** One refresh at a time; a change that arrives meanwhile schedules exactly one more. */
  function refresh() {
    if (refreshing) {
      refreshing.again = true;
      return refreshing.done;
    }
    const state = { again: false };
    state.done = (async () => {
      try {
        do {
          state.again = false;
          await refreshAll();
        } while (state.again);
      } finally {
        refreshing = null;
      }
    })();
    refreshing = state;
    return state.done;
  }

  function setLive(ok, text) {
    $('live-dot').className = 'dot ' + (ok ? 'on' : 'off');
    $('live-status').textContent = text;
  }

  async function poll() {
    try {
      const c = await get('/api/v1/changes' + (cursor ? '?since=' + encodeURIComponent(cursor) : ''));
      const changed = cursor !== null && c.changed > 0;
      cursor = c.cursor;
      $('revision').textContent = 'rev ' + c.revision;
      if (changed) await refresh();
      setLive(true, 'live · ' + new Date().toLocaleTimeString());
      setTimeout(poll, c.more ? 0 : POLL_MS);
    } catch (e) {
      setLive(false, 'disconnected, retrying');
      setTimeout(poll, POLL_MS * 3);
    }
  }

  async function pollNodes() {
    try {
      renderNodes(await get('/api/v1/nodes'));
    } catch (e) {
      // the live indicator already reports a lost server
    }
    setTimeout(pollNodes, NODES_MS);
  }

  function wire() {
    let typing = null;
    const restart = () => { table.offset = 0; refreshMachines().catch(() => {}); };
    ['filter-state', 'filter-zone', 'filter-type'].forEach((id) => $(id).addEventListener('change', restart));
    $('filter-q').addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(restart, 250); });
    $('filters').addEventListener('submit', (e) => { e.preventDefault(); restart(); });
    $('page-size').addEventListener('change', () => { table.limit = Number($('page-size').value); restart(); });
    $('page-prev').addEventListener('click', () => {
      table.offset = Math.max(0, table.offset - table.limit);
      refreshMachines().catch(() => {});
    });
    $('page-next').addEventListener('click', () => {
      table.offset += table.limit;
      refreshMachines().catch(() => {});
    });
    document.querySelectorAll('#machines-table th[data-sort]').forEach((th) => th.addEventListener('click', () => {
      if (table.sort === th.dataset.sort) {
        table.order = table.order === 'asc' ? 'desc' : 'asc';
      } else {
        table.sort = th.dataset.sort;
        table.order = th.dataset.sort === 'time_in_state' || th.dataset.sort === 'price_per_hour' ? 'desc' : 'asc';
      }
      table.offset = 0;
      refreshMachines().catch(() => {});
    }));
  }

  async function start() {
    wire();
    const first = await get('/api/v1/changes');
    cursor = first.cursor;
    await refresh();
    get('/api/v1/instance-types').then(renderTypes).catch(() => {});
    pollNodes();
    setLive(true, 'live');
    setTimeout(poll, POLL_MS);
  }

  document.addEventListener('DOMContentLoaded', () => {
    start().catch(() => {
      setLive(false, 'disconnected, retrying');
      setTimeout(poll, POLL_MS * 3);
    });
  });
})();
