// Building the page's markup. Every value is written with textContent, never as markup.

export const $ = (id) => document.getElementById(id);

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

export function td(content, cls) {
  const cell = el('td', cls);
  if (content instanceof Node) cell.appendChild(content);
  else if (content !== undefined && content !== null) cell.textContent = String(content);
  return cell;
}

export function emptyRow(span, text) {
  const tr = el('tr');
  const cell = el('td', 'empty', text);
  cell.colSpan = span;
  tr.appendChild(cell);
  return tr;
}

/** Adds the values a select lacks, keeping its choice. */
export function fillSelect(select, values) {
  const current = select.value;
  const known = new Set(Array.from(select.options).map((o) => o.value));
  values.forEach((v) => {
    if (!known.has(v)) select.appendChild(el('option', null, v));
  });
  select.value = current;
}

/** Selects {@code value}, adding it first when the select does not offer it yet (a bookmarked view). */
export function choose(select, value) {
  if (value && !Array.from(select.options).some((o) => o.value === value)) {
    select.appendChild(el('option', null, value));
  }
  select.value = value;
}

/** A bar of segments [{n, cls, title}] over {@code total}, with a caption. */
export function meter(segments, total, text) {
  const m = el('div', 'meter');
  const track = el('div', 'track');
  segments.forEach((s) => {
    const fill = el('div', 'fill' + (s.cls ? ' ' + s.cls : ''));
    fill.style.width = (total > 0 ? Math.min(100, (100 * s.n) / total) : 0) + '%';
    if (s.title) fill.title = s.title;
    track.appendChild(fill);
  });
  m.appendChild(track);
  m.appendChild(el('span', 'txt', text));
  return m;
}

export function stateBadge(state) {
  return el('span', 'state s-' + state, state);
}

export function attentionBadge() {
  const b = el('span', 'attention', 'needs attention');
  b.title = 'FAILED, its VM may be a live Kubernetes node, and the drain before its cleanup failed:'
    + ' the provider keeps retrying; look at the node';
  return b;
}
