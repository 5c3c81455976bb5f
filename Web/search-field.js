// The search field with its magnifier and placeholder, its Clear button, and Cancel.
import { button, element, onClick } from "./dom.js";

export class SearchField {
  constructor(opts = {}) {
    const placeholder = opts.placeholder ?? "Search";
    const { onFocus, onInput, onCancel } = opts; // a focus or a click, each edit (Clear's too), Cancel (its click event)
    const input = (this.input = element("input", {
      type: "search",
      class: "sift-input",
      placeholder,
      "aria-label": placeholder,
      autocomplete: "off",
      // The results it moves through (aria-activedescendant): beside a results panel the field is
      // a combobox owning its listbox; on a list page, whose results replace the list below, it
      // stays a plain search field, controlling them.
      "aria-controls": opts.controls,
      ...(opts.combobox && { role: "combobox", "aria-expanded": "false", "aria-autocomplete": "list" }),
    }));
    this.clearButton = button({ class: "sift-clear", "aria-label": "Clear", hidden: "" });
    this.cancelButton = button({ class: "sift-cancel" }, opts.cancelText ?? "Cancel");
    // The magnifier and placeholder are drawn over the field so the centered style can slide them.
    const hint = element("span", { class: "sift-hint", "aria-hidden": "true" }, element("i", { class: "sift-icon" }), element("span", {}, placeholder));
    this.element = element("div", { class: "sift-bar" }, element("div", { class: "sift-field" }, input, hint, this.clearButton), this.cancelButton);

    // A click too: Cancel from the keyboard leaves the focus in the field, at rest.
    input.addEventListener("focus", onFocus);
    input.addEventListener("click", onFocus);
    // While an input method composes (pinyin, romaji), the text is not yet what the visitor
    // means: it counts once composed (an input event may follow the composition's end, unchanged).
    let composed = null;
    input.addEventListener("input", (event) => {
      if (event.isComposing || composed === input.value) return;
      composed = null;
      onInput(input.value);
    });
    input.addEventListener("compositionend", () => onInput((composed = input.value)));
    onClick(this.clearButton, () => {
      input.value = "";
      input.focus();
      onInput("");
    });
    onClick(this.cancelButton, onCancel);
  }

  get value() {
    return this.input.value;
  }

  set value(text) {
    this.input.value = text;
  }

  /** Shows Clear while there is text. */
  update() {
    this.clearButton.hidden = !this.input.value;
  }
}
