// The search field with its magnifier and placeholder, its Clear button, and Cancel.
import { button, element, onClick } from "./dom.js";

export class SearchField {
  constructor(opts = {}) {
    const placeholder = opts.placeholder ?? "Search";
    const { onFocus, onInput, onCancel } = opts; // a focus or a click, each edit (Clear's too; and whether it is a change), Cancel (its click event)
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
    // Text an input method is still composing is searched as it comes (Android's keyboards
    // compose every Latin word until a space), but is no change of the visitor's (sift:change) until
    // composed; an input event after the composition's end, the text the same, is none at all.
    // `last`: the text searched; `told`: the text last told as a change, or given (value).
    let last = "", told = "";
    const tell = (composing) => {
      const text = input.value;
      if (text == last && (composing || text == told)) return;
      last = text;
      onInput(text, !composing && text != told);
      if (!composing) told = text;
    };
    this.given = (text) => (last = told = text);
    input.addEventListener("input", (event) => tell(event.isComposing));
    input.addEventListener("compositionend", () => tell());
    onClick(this.clearButton, () => {
      input.value = "";
      input.focus();
      tell();
    });
    onClick(this.cancelButton, onCancel);
  }

  get value() {
    return this.input.value;
  }

  set value(text) {
    this.input.value = this.given(text);
  }

  /** Shows Clear while there is text. */
  update() {
    this.clearButton.hidden = !this.input.value;
  }
}
