// The page's only way to the provider: GETs of /api/v1/.

export async function get(path) {
  const r = await fetch(path, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  if (!r.ok) {
    const e = new Error(path + ': HTTP ' + r.status);
    e.status = r.status;
    throw e;
  }
  return r.json();
}
