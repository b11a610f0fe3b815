// The Mountain (solitaire): health, threats left and score, the pyramid's slots (exposed, half
// exposed, covered, empty), the health pile; the player's hand. Keys: GAME.md.
"use strict";
(function () {
  const el = TC.el;
  const { stat, tag, section, playingCard, cardRow } = TC.games.helpers;

  const PHASES = { discard: "discard", draw: "draw", actions: "actions", over: "game over" };
  const SUIT_ACTIONS = { C: "clubs (chain)", S: "spades (same suit/rank)", D: "diamonds (dual)", H: "hearts (heal)" };
  const THREATS = ["J", "Q", "K"];
  const SLOT_WORDS = { exposed: "exposed", half_exposed: "half exposed", covered: "covered", empty: "empty" };

  function isThreat(card) {
    return Boolean(card) && THREATS.includes(card.slice(0, -1));
  }

  function pyramid(s) {
    const rows = [];
    for (let r = 1; r <= 6; r++) {
      const cells = [];
      for (let i = 1; i <= r; i++) {
        const pos = r + "-" + i;
        const card = (s.mountain || {})[pos];
        const slot = (s.slots || {})[pos] || (card ? "covered" : "empty");
        const cls = slot + (isThreat(card) ? " threat" : "");
        const node = card ? playingCard(card, cls) : el("span", { class: "card empty" }, "");
        node.setAttribute("data-pos", pos);
        node.setAttribute("data-slot", slot);
        node.title = pos + ": " + (card || "removed") + " (" + SLOT_WORDS[slot] + ")";
        cells.push(node);
      }
      rows.push(el("div", { class: "pyramid-row" }, cells));
    }
    return section("The mountain",
      el("div", { class: "pyramid" }, rows),
      el("div", { class: "legend" },
        el("span", {}, el("span", { class: "key exposed" }), "exposed"),
        el("span", {}, el("span", { class: "key half" }), "half exposed"),
        el("span", {}, el("span", { class: "key threat" }), "threat that attacks"),
        el("span", {}, el("span", { class: "key covered" }), "covered")));
  }

  function turnLine(s) {
    const parts = [el("strong", { "data-stat": "turn" }, "Turn " + s.turn), el("span", { "data-stat": "phase" }, PHASES[s.phase] || s.phase)];
    if (s.nightmare) parts.push(tag("Nightmare", "bad"));
    if ((s.acted || []).length) parts.push(el("span", {}, "played: " + s.acted.map((a) => SUIT_ACTIONS[a] || a).join(", ")));
    if (s.skipped) parts.push(el("span", {}, "skipped"));
    if (s.last_damage) parts.push(el("span", { "data-stat": "last-damage" }, "last attack: " + s.last_damage + " damage"));
    return el("p", { class: "headline" }, parts);
  }

  function board(b) {
    const s = b.scoreboard;
    const danger = s.phase !== "over" && s.attack > 0 && s.attack >= s.health;
    return el("div", { class: "tm" },
      turnLine(s),
      s.result ? el("p", { class: "banner " + (s.result === "won" ? "warn" : "bad") }, s.result === "won" ? "Every threat is destroyed: won!" : "The threats won: no health left to discard.") : null,
      el("div", { class: "stats" },
        stat("health", s.health, s.health <= 2 ? "bad" : s.health <= 4 ? "warn" : "good", "health"),
        stat("threats left", s.threats_left, "", "threats-left"),
        stat("score", s.score, "", "score"),
        stat("attack now", s.attack, danger ? "bad" : s.attack ? "warn" : "", "attack")),
      danger ? el("p", { class: "banner bad" }, "The threats would do " + s.attack + " damage now" + (s.attack > s.health
        ? ", more than the " + s.health + " health left: an attack that finds no health loses the game." : ": all the health that is left.")) : null,
      pyramid(s),
      el("div", { class: "stats" },
        stat("in hand", s.hand_size + "/" + s.hand_limit, "", "hand-size"),
        stat("removed", s.removed, "", "removed"),
        stat("stock", s.stock, "", "stock"),
        stat("discard", s.discard, "", "discard")),
      section("Health pile (top first)", (s.health_pile || []).length ? cardRow(s.health_pile, (c) => playingCard(c, "small")) : el("p", { class: "muted" }, "empty")));
  }

  function view(v) {
    return el("div", { class: "tm view" },
      turnLine(v),
      el("div", { class: "stats" },
        stat("health", v.health, v.health <= 2 ? "bad" : "", "health"),
        stat("threats left", v.threats_left, "", "threats-left"),
        stat("attack now", v.attack, v.attack ? "warn" : "", "attack")),
      section("Your hand", (v.hand || []).length ? el("div", { class: "cards hand", "data-hand": "solo" }, v.hand.map((c) => playingCard(c))) : el("p", { class: "muted" }, "No cards in hand.")),
      pyramid(v));
  }

  // A builder step over pyramid positions, laid out as the pyramid ("r-i": row r, position i).
  // The mountain as the console taps it in, row by row from the peak: the cards so far in their
  // places, the next place marked, the rest empty (laid out as the table lays it).
  function mountainSetup(cards) {
    const list = Array.isArray(cards) ? cards : [];
    const rows = [];
    let n = 0;
    for (let r = 1; r <= 6; r++) {
      const cells = [];
      for (let i = 1; i <= r; i++, n++) {
        const node = n < list.length ? playingCard(list[n], "small") : el("span", { class: "card small empty" + (n === list.length ? " next" : "") }, "");
        node.setAttribute("data-pos", r + "-" + i);
        cells.push(node);
      }
      rows.push(el("div", { class: "pyramid-row" }, cells));
    }
    return el("div", { class: "pyramid setup-pyramid" }, rows);
  }

  function pyramidPicker(next, button) {
    const rows = {};
    for (const c of next.choices) {
      const r = Number(String(c.value).split("-")[0]);
      (rows[r] = rows[r] || []).push(c);
    }
    return el("div", { class: "pyramid-pick" }, Object.keys(rows).sort((a, b) => a - b).map((r) =>
      el("div", { class: "pick-row" }, rows[r].map(button))));
  }

  // The venue's headline figures for a table of this game, from its published scoreboard.
  function summary(s) {
    return [["health", s.health], ["threats left", s.threats_left], ["score", s.score]];
  }

  TC.games.register("the-mountain", { board, view, card: TC.games.helpers.playingCard, picker: { pyramid_slot: pyramidPicker }, setup: { mountain: mountainSetup }, summary });
})();
