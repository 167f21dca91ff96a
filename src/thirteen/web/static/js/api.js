// Talking to the server: JSON over fetch. An error answer becomes an ApiError carrying the
// server's own words (its "detail") and the HTTP status; the page shows them as they come.
// ``changed``: the act was refused because the game has changed since it was chosen (the
// server then says the version now), not by the rules.

export class ApiError extends Error {
  constructor(message, status, changed = false) {
    super(message);
    this.status = status;
    this.changed = changed;
  }
}

// The page's own random name, sent with each of its requests, so that the server can tell
// two pages of one player apart: one leaving a game does not stop the clock another shows.
// (crypto.getRandomValues, not randomUUID: the latter needs https, and a server on a home
// network is plain http.)
export const SITTING = Array.from(crypto.getRandomValues(new Uint8Array(16)),
  (b) => b.toString(16).padStart(2, "0")).join("");

export async function api(method, path, body, signal) {
  const opts = { method, headers: { Accept: "application/json", Sitting: SITTING },
    credentials: "same-origin" };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  if (signal) opts.signal = signal;
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const detail = data && typeof data.detail === "string" && data.detail;
    throw new ApiError(detail || `${r.status} ${r.statusText}`, r.status,
      r.headers.has("Game-Version"));
  }
  return data;
}

// Requests that change or read the game on the table run one after another, in the order the
// player made them, so that an answer never overtakes an earlier one. body[data-busy] is set
// while any is in flight (the browser tests wait on it).
let queue = Promise.resolve();
let pending = 0;

function tracked(p) {
  pending += 1;
  document.body.dataset.busy = "1";
  return p.finally(() => {
    pending -= 1;
    if (!pending) delete document.body.dataset.busy;
  });
}

// ``path``: a string, or a function read when the request goes, once the answers before it are
// on the table (an act then carries the version they left); null from it: send nothing after
// all (answers null).
export function queued(method, path, body) {
  const p = queue.then(() => sent(method, path, body));
  queue = p.catch(() => undefined);
  return tracked(p);
}

// A request sent once those queued before it are answered, which the ones after it do not
// wait for: Solve, which may think for seconds while the player plays on.
export function beside(method, path, body) {
  return tracked(queue.then(() => sent(method, path, body)));
}

async function sent(method, path, body) {
  if (typeof path === "string") return api(method, path, body);
  // the earlier answer's own handlers run first (they are microtasks; this waits a task)
  await new Promise((resolve) => { setTimeout(resolve, 0); });
  const p = path();
  return p === null ? null : api(method, p, body);
}
