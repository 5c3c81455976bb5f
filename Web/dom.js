// The few DOM helpers the search bar's parts share. Index values become text nodes, never HTML.
import { highlight } from "./sift-core.js";

/** A new element with attributes and children (strings become text nodes). */
export function element(tag, attributes = {}, ...children) {
  const created = document.createElement(tag);
  for (const name in attributes) created.setAttribute(name, attributes[name]);
  created.append(...children);
  return created;
}

/** A button that submits nothing. */
export function button(attributes, ...children) {
  return element("button", { type: "button", ...attributes }, ...children);
}

/** Calls `handler` on a click on `target`, and returns `target`. */
export function onClick(target, handler) {
  target.addEventListener("click", handler);
  return target;
}

/** A boolean attribute, such as `data-active`: present and empty, or absent. */
export function setFlag(target, name, present) {
  if (present) target.setAttribute(name, "");
  else target.removeAttribute(name);
}

/** An on/off option from a data- attribute or a constructor option: "false" and false are off, absent or empty the default. */
export function flagOption(value, fallback) {
  return value == null || value === "" ? fallback : value !== false && value !== "false";
}

/** Writes `text` into `target`, the query's matches wrapped in <mark>. */
export function writeHighlighted(target, text, query) {
  const parts = [];
  let end = 0;
  for (const [markStart, markEnd] of query ? highlight(text, query) : []) {
    parts.push(text.slice(end, markStart), element("mark", {}, text.slice(markStart, markEnd)));
    end = markEnd;
  }
  target.replaceChildren(...parts, text.slice(end));
  return target;
}
