// The HTTP client of the web table: every request of the page goes through here. A seat's token
// travels only in the Authorization header, never in a URL (not even for the event stream).

/** @typedef {import("./types.js").Problem} Problem */

export class ApiError extends Error {
  /** @param {number} status @param {Partial<Problem>} problem */
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/**
 * @param {string} path
 * @param {{token?: string | null, method?: string, body?: unknown, headers?: Record<string, string>, signal?: AbortSignal}} [opts]
 * @returns {Promise<Response>}
 */
export function raw(path, opts = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", ...(opts.headers || {}) };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  /** @type {RequestInit} */
  const init = { method: opts.method || "GET", headers, signal: opts.signal, cache: "no-store" };
  if (opts.body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(opts.body);
  }
  return fetch(path, init);
}

/**
 * JSON of a request; an error answer (problem+json) becomes an ApiError.
 * @template T
 * @param {string} path
 * @param {Parameters<typeof raw>[1]} [opts]
 * @returns {Promise<T>}
 */
export async function json(path, opts) {
  return (await tagged(path, opts)).body;
}

/**
 * JSON of a request and the answer's ETag (a move's answer is the new view, tagged as a GET of it
 * would be); an error answer (problem+json) becomes an ApiError.
 * @template T
 * @param {string} path
 * @param {Parameters<typeof raw>[1]} [opts]
 * @returns {Promise<{body: T, etag: string | null}>}
 */
export async function tagged(path, opts) {
  const res = await raw(path, opts);
  const text = await res.text();
  /** @type {any} */
  let body = {};
  try { body = text ? JSON.parse(text) : {}; } catch { body = { detail: text.slice(0, 200) }; }
  if (!res.ok) throw new ApiError(res.status, body);
  return { body, etag: res.headers.get("ETag") };
}

/** A refusal in words: the problem's detail, its reason, the validation errors. @param {unknown} err */
export function problemText(err) {
  if (err instanceof ApiError) {
    const p = err.problem;
    const reason = p.reason ? ` (${p.reason.replace(/_/g, " ")})` : "";
    const errors = p.errors ? ` ${JSON.stringify(p.errors)}` : "";
    return `${p.detail || p.title || err.message}${reason}${errors}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** @param {string} game */
export const gamePath = (game) => `/v1/${encodeURIComponent(game)}/games`;

/** @param {string} game @param {string} id */
export const viewPath = (game, id) => `${gamePath(game)}/${encodeURIComponent(id)}`;

/** A fresh Idempotency-Key: a retry of the same intended request applies once. */
export function newKey() {
  if (globalThis.crypto && "randomUUID" in crypto) return crypto.randomUUID();
  return `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** @typedef {import("./types.js").GameInfo & {bot_levels?: string[], default_bot_level?: string}} CatalogueEntry */

/** @type {Promise<CatalogueEntry[]> | null} */
let games = null;

/** The catalogue of games, asked once per page load. @returns {Promise<CatalogueEntry[]>} */
export function catalogue() {
  if (!games) {
    games = json("/v1/games").then((c) => /** @type {{games: CatalogueEntry[]}} */ (c).games);
    games.catch(() => { games = null; });
  }
  return games;
}
