// The event-stream format (Server-Sent Events) read from text as it arrives: complete events out,
// the unfinished rest kept for the next piece. Pure.

/** @typedef {{event: string, data: string, id: string | null}} StreamEvent one event: its name ("message" if none), data lines joined */

/**
 * The complete events at the start of `text`, and the rest (an event not finished yet).
 * Comment lines (":") and events without data are skipped, as a browser's EventSource does.
 * @param {string} text @returns {{events: StreamEvent[], rest: string}}
 */
export function readEvents(text) {
  /** @type {StreamEvent[]} */
  const events = [];
  let rest = text;
  let cut;
  while ((cut = rest.search(/\r?\n\r?\n/)) >= 0) {
    const block = rest.slice(0, cut);
    rest = rest.slice(cut).replace(/^\r?\n\r?\n/, "");
    let event = "message";
    /** @type {string | null} */
    let id = null;
    /** @type {string[]} */
    const data = [];
    for (const line of block.split(/\r?\n/)) {
      if (!line || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "id") id = value;
    }
    if (data.length) events.push({ event, data: data.join("\n"), id });
  }
  return { events, rest };
}
