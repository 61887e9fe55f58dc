// Types of the wire, from the TypeScript declarations generated from the committed spec
// (tests/sdk/generate.sh writes cardtable.ts; tests/web/test_typecheck.py checks these files with tsc).
// Nothing here runs: the typedefs are for the checker only.

/** @typedef {import("./cardtable").components["schemas"]} Schemas */
/** @typedef {Schemas["GameInfo"]} GameInfo */
/** @typedef {Schemas["OptionInfo"]} OptionInfo */
/** @typedef {Schemas["Problem"]} Problem */
/** @typedef {Schemas["Seat"]} Seat */
/** @typedef {Schemas["StenView"]} StenView */
/** @typedef {Schemas["ConquianView"]} ConquianView */
/** @typedef {Schemas["SiebenschlaeferView"]} SiebenschlaeferView */
/** @typedef {Schemas["KanasterView"]} KanasterView */
/** @typedef {Schemas["KeineLahmeAgameView"]} KlaView */
/** @typedef {StenView | ConquianView | SiebenschlaeferView | KanasterView | KlaView} View */
/** @typedef {View["legal_moves"][number]} Move */
/** @typedef {NonNullable<View["result"]>} Result */
/** @typedef {Schemas["StenLogEntry"]} LogEntry */
/** @typedef {Schemas["StenCreated"]} Created */
/** @typedef {{type: string, [field: string]: unknown}} GameEvent */
/** @typedef {Schemas["TableEventSeatTaken"] | Schemas["TableEventBotSeated"] | Schemas["TableEventGameStarted"] | Schemas["TableEventGameAborted"] | LeavingEvent} TableEvent */
/** @typedef {Schemas["TableEventTimedOut"] | Schemas["TableEventResigned"] | Schemas["TableEventGameAbandoned"]} LeavingEvent */
/** @typedef {Schemas["Lobby"]} Lobby */
/** @typedef {Schemas["LookupAnswer"]} LookupAnswer */
/** @typedef {Schemas["Joined"]} Joined */
/** @typedef {Schemas["Rematched"]} Rematched */
/** @typedef {Schemas["StenExport"] | Schemas["ConquianExport"] | Schemas["SiebenschlaeferExport"] | Schemas["KanasterExport"] | Schemas["KeineLahmeAgameExport"]} Export */
/** @typedef {Export["entries"][number]} ExportEntry */
/** @typedef {Schemas["StenPosition"] | Schemas["ConquianPosition"] | Schemas["SiebenschlaeferPosition"] | Schemas["KanasterPosition"] | Schemas["KeineLahmeAgamePosition"]} Position */

export {};
