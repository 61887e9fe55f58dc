// Live updates of one table: the event stream (Server-Sent Events read with fetch(), since
// EventSource cannot send the Authorization header), reconnecting with Last-Event-ID (the last log
// entry the page holds); where the server has no stream, long polling of the view (?wait= with
// If-None-Match), which a server without long polling answers at once, so the loop then waits a
// second between polls.

import { raw, viewPath } from "./api.js";
import { readEvents } from "./sse.js";

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").LogEntry} LogEntry */

/**
 * @typedef {{
 *   game: string, id: string, token: string | null, signal: AbortSignal,
 *   logVersion: () => number, etag: () => string | null,
 *   onEntries: (entries: LogEntry[]) => void,
 *   onView: (view: View, etag: string | null) => void,
 *   onPolling: () => void,
 * }} LiveOptions
 *   `logVersion`: the last log entry the page holds; `etag`: the shown view's; `onPolling`: the
 *   server has no stream, so from now on the view is polled and the page reads the log itself
 */

const WAIT_SECONDS = 25;

/** @param {number} ms @param {AbortSignal} signal */
const sleep = (ms, signal) => new Promise((resolve) => {
  const t = setTimeout(resolve, ms);
  signal.addEventListener("abort", () => { clearTimeout(t); resolve(undefined); }, { once: true });
});

/** @param {LiveOptions} o */
export async function live(o) {
  let streamWorks = true;
  let failures = 0;
  while (!o.signal.aborted) {
    try {
      if (streamWorks) {
        const outcome = await stream(o);
        if (outcome === "unsupported") { streamWorks = false; o.onPolling(); continue; }
        if (outcome === "ended") return;
        await sleep(250, o.signal);  // the server closed a long stream: resume where it stopped
      } else {
        const outcome = await poll(o);
        if (outcome === "ended") return;
      }
      failures = 0;
    } catch (err) {
      if (o.signal.aborted) return;
      failures += 1;
      await sleep(Math.min(10000, 500 * 2 ** failures), o.signal);
    }
  }
}

/**
 * Read the stream until it closes. "unsupported" when the server has none.
 * @param {LiveOptions} o @returns {Promise<"unsupported" | "ended" | "closed">}
 */
async function stream(o) {
  const headers = { Accept: "text/event-stream", "Last-Event-ID": String(o.logVersion()) };
  const res = await raw(`${viewPath(o.game, o.id)}/events`, { token: o.token, headers, signal: o.signal });
  if (!res.ok || !(res.headers.get("Content-Type") || "").startsWith("text/event-stream") || !res.body) {
    if (res.body) await res.body.cancel().catch(() => undefined);
    if (res.status >= 500 || res.status === 429) throw new Error(`stream answered ${res.status}`);
    return "unsupported";
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let ended = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const { events, rest } = readEvents(buffer + value);
    buffer = rest;
    const entries = events.filter((e) => e.event === "entry").map((e) => /** @type {LogEntry} */ (JSON.parse(e.data)));
    if (entries.length) o.onEntries(entries);
    if (events.some((e) => e.event === "end")) ended = true;
  }
  return ended ? "ended" : "closed";
}

/**
 * One long poll of the view. @param {LiveOptions} o @returns {Promise<"ended" | "again">}
 */
async function poll(o) {
  const started = Date.now();
  const etag = o.etag();
  const res = await raw(`${viewPath(o.game, o.id)}?wait=${WAIT_SECONDS}`, { token: o.token, signal: o.signal,
    headers: etag ? { "If-None-Match": etag } : {} });
  if (res.status === 200) {
    /** @type {View} */
    const view = await res.json();
    o.onView(view, res.headers.get("ETag"));
    if (view.status === "finished") return "ended";
  } else if (res.status !== 304) {
    throw new Error(`view answered ${res.status}`);
  }
  if (Date.now() - started < 900) await sleep(1000, o.signal);
  return "again";
}
