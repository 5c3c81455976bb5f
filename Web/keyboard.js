// The bar's keys (docs/search-bar.md, "Keyboard") and the row they select: Esc cancels (wherever the
// focus is), ↓ ↑ move through the rows, Enter opens the selected one or submits, the arrows move along the scope bar; and the
// page's shortcut to the field, / or Ctrl+K or Cmd+K.

// One shortcut for the page, to the first bar's field.
let shortcut;

export class Keyboard {
  constructor(opts = {}) {
    this.idPrefix = opts.idPrefix; // rows without an id get one from it, for aria-activedescendant
    this.input = opts.input;
    this.listbox = opts.listbox; // a panel's, if any
    // What the keys do, the bar's to say.
    this.onEscape = opts.onEscape;
    this.onSubmit = opts.onSubmit;
    this.onScope = opts.onScope;
    this.onLastRow = opts.onLastRow;
    this.rows = []; // the rows ↓ and ↑ move through: a list's rows, or a panel's options
    this.selected = -1;
    // The page's keys: Esc cancels wherever the focus is (a row of the list, "Show more", the page after Back).
    document.addEventListener("keydown", (event) => this.keydown(event));
  }

  /** Listens for / (outside a text field), Ctrl+K and Cmd+K, once per page. */
  static focusOnShortcut(input) {
    if (shortcut) return;
    shortcut = (event) => {
      // Not where it is typed: a text field (a checkbox or a button types nothing).
      const slash = event.key == "/" && !event.target.closest("input:not([type=checkbox],[type=radio],[type=button],[type=submit],[type=reset],[type=range]),textarea,select,[contenteditable]");
      if (slash || ((event.ctrlKey || event.metaKey) && event.key == "k")) {
        event.preventDefault();
        // A click too: the field may have the focus already, at rest after Cancel.
        input.focus();
        input.click();
      }
    };
    document.addEventListener("keydown", shortcut);
  }

  keydown(event) {
    const { key, target } = event, inResults = target == this.input || target == this.listbox;
    // A key an input method takes (Enter choosing a candidate, Esc dropping one) is its own;
    // Safari says so by keyCode 229 alone.
    if (event.isComposing || event.keyCode == 229) return;
    if (key == "Escape") {
      // The field's own Esc would empty it. Elsewhere on the page Esc cancels too, but in another
      // form (another bar's, the site's own) or a dialog, whose Esc it is.
      if (inResults) event.preventDefault();
      if (this.input.form.contains(target) || !target.closest("form,dialog")) this.onEscape();
    } else if (inResults && /Arrow(Down|Up)/.test(key)) {
      event.preventDefault();
      this.move(key == "ArrowDown" ? 1 : -1);
    } else if (inResults && key == "Enter") {
      event.preventDefault();
      const row = this.rows[this.selected];
      // A list's row holds its link; a panel's option is one.
      if (row) return (row.querySelector("a") ?? row).click();
      this.onSubmit();
    } else if (target.role == "radio" && /^Arrow/.test(key) && this.input.form.contains(target)) {
      // As native radio buttons: ↓ and → go on, ← in right-to-left text, past either end round to
      // the other; and the page does not scroll.
      event.preventDefault();
      const on = key == "ArrowDown" || key == (target.matches(":dir(rtl)") ? "ArrowLeft" : "ArrowRight");
      const radio = target[on ? "nextElementSibling" : "previousElementSibling"] ?? target.parentNode[on ? "firstElementChild" : "lastElementChild"];
      if (radio) {
        radio.focus();
        this.onScope(radio.dataset.scope);
      }
    }
  }

  /** Moves the selection by `step` rows, within the rows (-1: none). */
  move(step) {
    const rows = this.rows, previous = rows[this.selected];
    if (previous) {
      delete previous.dataset.active;
      if (previous.role) previous.setAttribute("aria-selected", "false");
    }
    this.selected = Math.max(-1, Math.min(rows.length - 1, this.selected + step));
    // The text the selection was made with (SiftSearch.show keeps it for that text's answer).
    this.query = this.input.value;
    const row = rows[this.selected];
    // At the last row shown, the next ones are asked for.
    if (this.selected == rows.length - 1) this.onLastRow?.();
    if (row) {
      row.dataset.active = "";
      if (row.role) row.setAttribute("aria-selected", "true");
      row.scrollIntoView({ block: "nearest" });
      // A list page's bar, and a theme's sticky site header, stay at the top while its rows scroll
      // (sift.css): a row moved to under one is brought out.
      for (const over of [this.input.form, ...document.querySelectorAll("[data-sift-header]")]) {
        const at = row.getBoundingClientRect(), { top, bottom } = over.getBoundingClientRect();
        if (at.bottom > top && at.top < bottom) scrollBy(0, at.top - bottom);
      }
    }
    // The field keeps the focus; a panel's listbox has it when Tab took it there to scroll. They
    // name what Enter takes: a panel's option, or a list row's link (named by its text, as the
    // row's item is not).
    const target = row && (row.querySelector("a") ?? row);
    if (target) target.id ||= `${this.idPrefix}-r${this.selected}`;
    for (const owner of [this.input, this.listbox]) owner?.[target ? "setAttribute" : "removeAttribute"]("aria-activedescendant", target?.id);
  }

  deselect() {
    this.move(-Infinity);
  }
}
