// Escape House: the penalty clocks (impossible to miss), main puzzles left, round and phase, the
// living and the sacrificed, who is in which room. Keys: GAME.md.
"use strict";
(function () {
  const el = TC.el;
  const svg = TC.svg;
  const { stat, section, fold, names } = TC.games.helpers;

  const PHASES = ["explore", "action", "resolve"];

  function clockFace(on, i) {
    return svg("svg", { class: "clock" + (on ? " on" : ""), viewBox: "0 0 100 100", role: "img", "aria-label": on ? "clock " + (i + 1) + ": drawn" : "clock " + (i + 1) + ": not drawn" },
      svg("circle", { class: "face", cx: 50, cy: 50, r: 44 }),
      svg("line", { class: "hand", x1: 50, y1: 50, x2: 50, y2: 20 }),
      svg("line", { class: "hand", x1: 50, y1: 50, x2: 72, y2: 50 }));
  }

  function clocks(n) {
    const shown = Math.max(0, Math.min(3, n || 0));
    const words = ["No clock drawn yet", "One clock drawn", "TWO CLOCKS: one more and everyone loses", "THREE CLOCKS: the cultists are back"];
    return el("div", { class: "clocks level-" + shown, "data-clocks": String(shown), role: "status", "aria-live": "assertive" },
      el("div", { class: "clock-faces" }, [0, 1, 2].map((i) => clockFace(i < shown, i))),
      el("div", {},
        el("div", { class: "count" }, String(shown), el("small", {}, " / 3 clocks")),
        el("div", { class: "label" }, words[shown])));
  }

  function phases(s) {
    if (s.phase === "over") return el("p", { class: "headline" }, el("strong", {}, "Round " + s.round + " · game over"));
    return el("ol", { class: "phases", "data-phase": s.phase }, PHASES.map((p) => el("li", { class: p === s.phase ? "now" : "" }, p)));
  }

  function card(c) {
    if (!c) return el("span", { class: "eh-card" }, "?");
    return el("span", { class: "eh-card eh-" + c.kind, "data-card": c.id, title: c.name }, c.name, el("small", {}, c.kind));
  }

  function rooms(s) {
    const cleared = new Set((s.cleared_rooms || []).map((r) => (typeof r === "string" ? r : r.room || r.id)));
    const deck = s.deck_sizes || {};
    return section("Rooms", el("div", { class: "rooms" }, Object.entries(s.rooms || {}).map(([room, people]) =>
      el("div", { class: "room" + (room === "main" ? " main" : "") + (cleared.has(room) ? " cleared" : ""), "data-room": room },
        el("div", { class: "room-name" }, room === "main" ? "main room" : room),
        el("div", { class: "meta muted" }, room === "main" ? "discard pile " + (s.discard_size || 0) : "deck " + (deck[room] || 0)),
        el("div", { class: "people" }, people.length ? people.map((p) => el("span", { class: "person" }, p)) : el("span", { class: "muted" }, "empty"))))));
  }

  function people(b, s) {
    const hands = s.hand_sizes || {};
    const alive = el("div", { class: "people", "data-alive": String((s.alive || []).length) },
      (s.alive || []).map((p) => el("span", { class: "person", "data-player": p }, p, hands[p] !== undefined ? " · " + hands[p] : "")));
    const dead = el("div", { class: "people", "data-sacrificed": String((s.sacrificed || []).length) },
      (s.sacrificed || []).length ? s.sacrificed.map((p) => el("span", { class: "person dead", "data-player": p }, p)) : el("span", { class: "muted" }, "nobody yet"));
    return section("Players", el("p", { class: "note" }, "Living (cards in hand):"), alive, el("p", { class: "note" }, "Sacrificed:"), dead);
  }

  function table(s) {
    const parts = [];
    if (s.penalties_due) parts.push(el("p", { class: "banner bad" }, s.penalties_due === 1 ? "A penalty card is due: draw it now" : s.penalties_due + " penalty cards are due: draw them now"));
    const played = s.played || [];
    if (played.length) {
      parts.push(section("Played this round", el("ul", { class: "plain" }, played.map((p) =>
        el("li", {}, el("strong", {}, p.by), " in " + p.room + ": ", p.card ? card(p.card) : el("span", { class: "muted" }, "face down"),
          p.target ? " → " + p.target : "")))));
    }
    const follows = Object.entries(s.follows || {});
    if (follows.length) parts.push(el("p", { class: "note" }, "Following: " + follows.map(([a, b]) => a + " → " + b).join(", ")));
    if ((s.cleared_now || []).length) parts.push(el("p", { class: "note" }, "Cleared this round: ", s.cleared_now.map(card)));
    return parts;
  }

  function board(b) {
    const s = b.scoreboard;
    const left = s.main_left;
    return el("div", { class: "eh" },
      clocks(s.clocks),
      el("div", { class: "stats" },
        stat("main puzzles left", left, left <= 1 ? "good" : "", "main-left"),
        stat("round", s.round, "", "round"),
        stat("living", (s.alive || []).length, "", "alive"),
        stat("sacrificed", (s.sacrificed || []).length, (s.sacrificed || []).length ? "bad" : "", "sacrificed")),
      phases(s),
      s.main_puzzle ? el("p", { class: "headline" }, "Main puzzle: ", card(s.main_puzzle)) : null,
      table(s),
      people(b, s),
      rooms(s),
      fold("eh-penalties", "Penalty deck: " + (s.penalties_left || 0) + " left, " + (s.penalties_drawn || []).length + " drawn",
        (s.penalties_drawn || []).length ? el("div", {}, s.penalties_drawn.map(card)) : el("p", { class: "muted" }, "none drawn yet")),
      s.card_set ? el("p", { class: "note" }, "Card set: " + s.card_set) : null);
  }

  function view(v, player) {
    const you = v.you || {};
    const parts = [clocks(v.clocks)];
    if (you.alive === false) {
      parts.push(el("p", { class: "banner bad" }, "You were sacrificed to the cult. You can still watch the others escape."));
      return el("div", { class: "eh view" }, parts);
    }
    parts.push(el("div", { class: "stats" },
      stat("your room", you.room === "main" ? "main" : you.room, "", "room"),
      stat("cards", (you.hand || []).length, (you.hand || []).length > 5 ? "warn" : "", "hand-size"),
      stat("round", v.round, "", "round"),
      stat("phase", v.phase, "", "phase")));
    parts.push(section("Your hand", (you.hand || []).length ? el("div", { class: "hand-list", "data-hand": player }, you.hand.map(card)) : el("p", { class: "muted" }, "No cards.")));
    const bars = [];
    if (you.no_move) bars.push("you cannot move (or follow) this action phase");
    if (you.no_play) bars.push("you cannot play a card this action phase");
    if (you.owed_discards) bars.push("you owe " + you.owed_discards + " discard" + (you.owed_discards > 1 ? "s" : ""));
    if (you.discard_draws) bars.push("you may draw " + you.discard_draws + " from the discard pile");
    if ((you.hand || []).length > 5) bars.push("over the hand limit: stash down to 5 before the explore phase ends");
    if (bars.length) parts.push(el("ul", { class: "plain" }, bars.map((t) => el("li", { class: "banner warn" }, t))));
    if (you.played) {
      const p = you.played;
      parts.push(section("Your face-down card", el("p", {}, p.card ? card(p.card) : null, p.target ? " on " + p.target : "")));
    }
    if (you.room_puzzle) parts.push(section("The puzzle in this room", card(you.room_puzzle)));
    if (v.main_puzzle) parts.push(el("p", { class: "note" }, "Main puzzle: ", card(v.main_puzzle), " · " + v.main_left + " left"));
    parts.push(el("p", { class: "note" }, "Living: " + names(v.alive) + (v.sacrificed && v.sacrificed.length ? " · sacrificed: " + v.sacrificed.join(", ") : "")));
    return el("div", { class: "eh view" }, parts);
  }

  // The venue's headline figures for a table of this game, from its published scoreboard.
  function summary(s) {
    return [["penalty clocks", s.clocks], ["main puzzles left", s.main_left], ["alive", (s.alive || []).length]];
  }

  TC.games.register("escape-house", { board, view, summary });
})();
