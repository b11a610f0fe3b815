// A value made of parts, tapped a part at a time (an Everest planned coin: the coin, then the side up,
// then the way it points). The game declares the parts (companion/core/picks.py `Part`, sent as an
// offer step's `parts`); the server still offers whole values and the engine judges the finished move.
// This only presents them: each part shows the values that some offered value has, in words, and the
// last part's buttons are the whole values' own buttons (the builder's, which put them in the draft).
// A part hinted "compass" is laid out as its values point on the board (`places`: right, up).
"use strict";
(function () {
  const el = TC.el;
  let held = { key: null, chosen: {} }; // the parts tapped so far, for one value of one step
  // Any other tap of the builder ("Start again", another verb) lets go of the parts tapped so far.
  document.addEventListener("click", (e) => {
    const b = e.target.closest && e.target.closest("[data-tap]");
    if (b && !b.closest("[data-parts]")) held = { key: null, chosen: {} };
  }, true);

  function fits(choice, chosen) {
    return Object.entries(chosen).every(([k, v]) => choice.value && choice.value[k] === v);
  }

  // What the whole values left all say ("move 2" of "move 2 ↑ N" and "move 2 → E"), in whole words.
  function shared(labels) {
    if (labels.length < 2) return "";
    let common = labels[0];
    for (const l of labels) while (!l.startsWith(common)) common = common.slice(0, -1);
    return labels.every((l) => l.length === common.length || l[common.length] === " ") ? common.trim() : common.replace(/\S*$/, "").trim();
  }

  function tap(label, tapKey, onclick, cls) {
    return el("button", { type: "button", class: "tap" + (cls ? " " + cls : ""), "data-tap": tapKey, onclick }, label);
  }

  // A 3x3 rose: each value in the cell it points to, what is chosen so far in the middle.
  function rose(part, buttons, middle) {
    const cells = part.values.map((v, i) => {
      const b = buttons[i];
      if (!b) return null;
      const [right, up] = part.places[i] || [0, 0];
      b.classList.add("col-" + (right + 1), "row-" + (1 - up));
      return b;
    });
    return el("div", { class: "rose", role: "group", "aria-label": part.ask, "data-rose": part.key },
      el("span", { class: "rose-middle col-1 row-1" }, middle), cells);
  }

  // next: the builder's step (with `parts`); button(choice): the builder's button for a whole value.
  TC.parts = function (next, button) {
    const parts = next.parts || [];
    if (!parts.length) return null;
    const key = next.field + ":" + JSON.stringify(next.so_far);
    if (held.key !== key) held = { key, chosen: {} };
    const node = el("div", { class: "parts", "data-parts": next.field });

    function draw() {
      const chosen = held.chosen;
      const at = parts.findIndex((p) => !(p.key in chosen));
      const chips = parts.slice(0, at).map((p) => {
        const v = p.values.find((x) => x.value === chosen[p.key]);
        return tap(p.key + ": " + (v ? v.label : chosen[p.key]) + " ✕", "part-clear:" + p.key, () => {
          const kept = {};
          for (const q of parts) { if (q.key === p.key) break; kept[q.key] = chosen[q.key]; }
          held.chosen = kept;
          draw();
        }, "chip");
      });
      const part = parts[at];
      const here = next.choices.filter((c) => fits(c, chosen));
      const last = at === parts.length - 1;
      const buttons = part.values.map((v) => {
        const mine = here.filter((c) => c.value[part.key] === v.value);
        if (!mine.length) return null;
        const legal = mine.some((c) => c.legal);
        if (last) {
          const b = button(mine[0]); // the whole value: its tap is the builder's own
          b.replaceChildren(v.label);
          b.dataset.part = part.key + ":" + v.value;
          return b;
        }
        return tap(v.label, "part:" + part.key + ":" + v.value, () => { held.chosen = Object.assign({}, chosen, { [part.key]: v.value }); draw(); },
          "choice" + (legal ? "" : " off"));
      });
      const middle = shared(here.map((c) => c.label)) || parts.slice(0, at).map((p) => (p.values.find((x) => x.value === chosen[p.key]) || { label: chosen[p.key] }).label).join(" · ");
      const body = part.hint === "compass" && part.places
        ? rose(part, buttons, middle)
        : el("div", { class: "tap-row tap-choices", role: "group", "aria-label": part.ask }, buttons);
      node.dataset.part = part.key;
      node.replaceChildren(...[
        chips.length ? el("div", { class: "tap-row filled" }, chips) : null,
        el("p", { class: "part-ask" }, part.ask),
        body].filter(Boolean));
    }

    draw();
    return node;
  };
})();
