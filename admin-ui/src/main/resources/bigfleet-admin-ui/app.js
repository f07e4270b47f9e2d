// The admin page: read-only views of /api/v1/, kept live by polling /api/v1/changes with the
// inventory's revision cursor and /api/v1/status for the header. The view (filters, sort, page, the
// open machine) lives in the address bar.

import { get } from './api.js';
import { hideDetail, showDetail } from './detail.js';
import { $, choose, el } from './dom.js';
import { tick } from './format.js';
import { renderRevision, renderStatus } from './header.js';
import { renderFailures, renderNodes, renderOfferings, renderSummary, renderTypes } from './inventory.js';
import { renderMachines } from './machines.js';
import { machineHref, machinesApiUrl, readUrl, view, writeUrl } from './view.js';

const POLL_MS = 1000;
const STATUS_MS = 2000;
const NODES_MS = 10000;

let cursor = null;
let refreshing = null;

/** A link that opens machine {@code id} in the detail view, in place. */
function machineLink(id) {
  const a = el('a', 'machine-link', id);
  a.href = machineHref(id);
  a.addEventListener('click', (e) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return; // a new tab opens the link
    e.preventDefault();
    openMachine(id);
  });
  return a;
}

function openMachine(id) {
  view.machine = id;
  writeUrl(true);
  showDetail(id).catch(() => {});
  $('detail').scrollIntoView({ block: 'start' });
}

function closeMachine() {
  view.machine = '';
  writeUrl(true);
  hideDetail();
}

/** Sets the controls from the view (after a load or Back). */
function showControls() {
  choose($('filter-state'), view.state);
  choose($('filter-zone'), view.zone);
  choose($('filter-type'), view.type);
  $('filter-q').value = view.q;
  choose($('page-size'), String(view.limit));
}

async function refreshMachines() {
  renderMachines(await get(machinesApiUrl()), machineLink);
}

async function refreshAll() {
  const [summary, offerings, page, failures, nodes] = await Promise.all([
    get('/api/v1/summary'), get('/api/v1/offerings'), get(machinesApiUrl()), get('/api/v1/failures?limit=20'),
    get('/api/v1/nodes')]);
  renderSummary(summary);
  renderRevision(summary.revision);
  renderOfferings(offerings);
  renderMachines(page, machineLink);
  renderFailures(failures, machineLink);
  renderNodes(nodes);
  if (view.machine) await showDetail(view.machine);
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
    renderRevision(c.revision);
    if (changed) await refresh();
    setLive(true, 'live');
    setTimeout(poll, c.more ? 0 : POLL_MS);
  } catch (e) {
    setLive(false, 'disconnected, retrying');
    setTimeout(poll, POLL_MS * 3);
  }
}

let reachable = null;

async function pollStatus() {
  try {
    const status = await get('/api/v1/status');
    renderStatus(status);
    const now = status.api ? status.api.reachable : null;
    if (reachable !== null && now !== reachable) {
      renderNodes(await get('/api/v1/nodes')); // nodes are unknown while the API is not reachable
    }
    reachable = now;
  } catch (e) {
    // the live indicator already reports a lost server
  }
  setTimeout(pollStatus, STATUS_MS);
}

async function pollNodes() {
  try {
    renderNodes(await get('/api/v1/nodes'));
  } catch (e) {
    // as above
  }
  setTimeout(pollNodes, NODES_MS);
}

/** A control changed the table's query: the view takes every control's value, back to its first page. */
function requery() {
  view.state = $('filter-state').value;
  view.zone = $('filter-zone').value;
  view.type = $('filter-type').value;
  view.q = $('filter-q').value.trim();
  view.limit = Number($('page-size').value);
  view.offset = 0;
  writeUrl(false);
  refreshMachines().catch(() => {});
}

function wire() {
  let typing = null;
  ['filter-state', 'filter-zone', 'filter-type', 'page-size'].forEach((id) => $(id).addEventListener('change', requery));
  $('filter-q').addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(requery, 250);
  });
  $('filters').addEventListener('submit', (e) => { e.preventDefault(); requery(); });
  const page = (delta) => {
    view.offset = Math.max(0, view.offset + delta * view.limit);
    writeUrl(false);
    refreshMachines().catch(() => {});
  };
  $('page-prev').addEventListener('click', () => page(-1));
  $('page-next').addEventListener('click', () => page(1));
  document.querySelectorAll('#machines-table th[data-sort]').forEach((th) => th.addEventListener('click', () => {
    if (view.sort === th.dataset.sort) {
      view.order = view.order === 'asc' ? 'desc' : 'asc';
    } else {
      view.sort = th.dataset.sort;
      view.order = th.dataset.sort === 'time_in_state' || th.dataset.sort === 'price_per_hour' ? 'desc' : 'asc';
    }
    requery();
  }));
  $('detail-close').addEventListener('click', closeMachine);
  window.addEventListener('popstate', () => {
    readUrl();
    showControls();
    refreshMachines().catch(() => {});
    if (view.machine) {
      showDetail(view.machine).catch(() => {});
      $('detail').scrollIntoView({ block: 'start' });
    } else {
      hideDetail();
    }
  });
}

async function start() {
  window.history.scrollRestoration = 'manual'; // Back scrolls to the machine it opens, not to where the page was
  readUrl();
  showControls();
  wire();
  setInterval(tick, 1000);
  pollStatus();
  const first = await get('/api/v1/changes');
  cursor = first.cursor;
  await refresh();
  get('/api/v1/instance-types').then(renderTypes).catch(() => {});
  setTimeout(pollNodes, NODES_MS);
  setLive(true, 'live');
  setTimeout(poll, POLL_MS);
}

start().catch(() => {
  setLive(false, 'disconnected, retrying');
  setTimeout(poll, POLL_MS * 3);
});
