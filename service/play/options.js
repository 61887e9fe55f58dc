// A game's house rules in the setup form, as the catalogue describes them: each option's label and
// help, and the options a player changed (only those are sent). Pure.

/** @typedef {import("./types.js").OptionInfo} OptionInfo */

/** "sections per game". @param {OptionInfo} o */
export const optionLabel = (o) => o.name.replace(/_/g, " ");

/** The option's description, bounds and default in one sentence. @param {OptionInfo} o */
export function optionHelp(o) {
  const range = o.minimum !== undefined && o.maximum !== undefined ? `${o.minimum}\u2013${o.maximum}`
    : o.minimum !== undefined ? `at least ${o.minimum}` : o.maximum !== undefined ? `at most ${o.maximum}` : "";
  const bounds = range || o.nullable ? ` (${[range, o.nullable ? "empty for none" : ""].filter(Boolean).join("; ")})` : "";
  return `${o.description}${bounds} Default: ${o.default === null ? "none" : String(o.default)}.`;
}

/**
 * The options whose value differs from the default, from the form's values (a checkbox's boolean,
 * a field's text; an empty number field is null).
 * @param {readonly OptionInfo[]} options @param {Record<string, string | boolean | undefined>} values
 * @returns {Record<string, unknown>}
 */
export function changedOptions(options, values) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const o of options) {
    const raw = values[o.name];
    if (raw === undefined) continue;
    const value = o.type === "boolean" ? raw === true : o.type === "integer" ? (raw === "" ? null : Number(raw)) : raw;
    if (value !== o.default) out[o.name] = value;
  }
  return out;
}
