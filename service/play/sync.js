// When the page needs the view again: decisions of the live table, from versions (and ETags). A view
// names its version, and a log entry the version its move made. Pure.

/** @typedef {import("./types.js").View} View */

/**
 * How a view that arrived compares with the one shown: "newer" is drawn, "same" changes nothing
 * (the same version is the same view for the same seat, unless its ETag says otherwise: who is at
 * the table, or a rematch, changes no version), "older" (an answer overtaken by a later one) is
 * dropped.
 * @param {View | null} shown @param {View} arrived @param {string | null} [shownTag] @param {string | null} [arrivedTag]
 * @returns {"newer" | "same" | "older"}
 */
export function compareViews(shown, arrived, shownTag = null, arrivedTag = null) {
  if (!shown || arrived.version > shown.version) return "newer";
  if (arrived.version < shown.version) return "older";
  return shownTag && arrivedTag && shownTag !== arrivedTag ? "newer" : "same";
}

/**
 * Whether the log holds a move the shown view does not: then the view is fetched. The log's
 * entries of the viewer's own move (and of the bots' moves its answer carried) never ask for it.
 * @param {number} logVersion the last entry's version @param {View | null} shown
 */
export const viewBehind = (logVersion, shown) => shown !== null && logVersion > shown.version;
