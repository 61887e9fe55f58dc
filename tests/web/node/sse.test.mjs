// Reading the event stream (sse.js): complete events out, the unfinished rest kept, whatever the
// pieces the network cuts the text into.

import assert from "node:assert/strict";
import { test } from "node:test";

import { readEvents } from "../../../service/play/sse.js";

const STREAM = ': keep-alive\n\nid: 4\nevent: entry\ndata: {"version":4}\n\nid: 5\r\nevent: entry\r\ndata: {"version":\r\ndata: 5}\r\n\r\nevent: end\ndata: {"version":5}\n\n';
const EVENTS = [
  { event: "entry", data: '{"version":4}', id: "4" },
  { event: "entry", data: '{"version":\n5}', id: "5" },
  { event: "end", data: '{"version":5}', id: null },
];

test("events come out with their name, data lines joined and id; a comment is no event", () => {
  assert.deepEqual(readEvents(STREAM), { events: EVENTS, rest: "" });
});

test("an event cut anywhere waits for its end, and the stream reads the same in any pieces", () => {
  for (let cut = 0; cut <= STREAM.length; cut++) {
    const first = readEvents(STREAM.slice(0, cut));
    const second = readEvents(first.rest + STREAM.slice(cut));
    assert.deepEqual([...first.events, ...second.events], EVENTS, `cut at ${cut}`);
    assert.equal(second.rest, "");
  }
});

test("a field without a colon and an event without data are read as the format says", () => {
  assert.deepEqual(readEvents("data\n\nevent: ping\n\ndata:x\n\n").events, [
    { event: "message", data: "", id: null }, { event: "message", data: "x", id: null }]);
});
