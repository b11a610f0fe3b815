// Escape From Horrible Mountain 2: live scores (cube points only while hands are hidden), the five
// Table Cards with their cubes, the piles, an action under way at the table; a player's own hand and hand score.
// Keys: GAME.md ("Scoreboard and views").
"use strict";
(function () {
  const el = TC.el;
  const { bar, stat, tag, section, playingCard, cardRow } = TC.games.helpers;

  const PHASES = { place: "placing cubes", play: "playing", over: "game over" };

  function cube(colour) {
    return el("span", { class: "cube pc-" + colour, title: colour + " cube", "data-cube": colour });
  }

  function role(s, p) {
    return s.evil_master === p ? tag("Evil Master", "bad") : tag("adventurer");
  }

  function headline(s) {
    return el("p", { class: "headline" },
      el("strong", { "data-stat": "phase" }, PHASES[s.phase] || s.phase),
      s.turn ? el("span", { "data-stat": "turn" }, s.turn + " to act" + (s.must_discard ? ": discard down to five" : "")) : null);
  }

  // An action a table is in the middle of (GAME.md: `laid`, `lifted`): the referee sees what it waits for.
  function underWay(s) {
    if (s.lifted) {
      return el("p", { class: "banner warn", "data-under-way": "lifted" },
        (s.turn || "") + " took ", playingCard(s.lifted, "small"), " from the Discard Pile: the Control Cube paid for it is still to come");
    }
    if ((s.laid || []).length) {
      return el("p", { class: "banner warn", "data-under-way": "laid" },
        (s.turn || "") + " put ", s.laid.map((c) => playingCard(c, "small")), " on the Discard Pile: Swap Cubes or Claim a Cube, still to finish");
    }
    return null;
  }

  function scores(b, s) {
    const over = s.phase === "over";
    return el("div", { class: "players" }, b.players.map((p) => {
      const sc = (s.scores || {})[p] || {};
      const showTotal = sc.total !== null && sc.total !== undefined;
      const points = showTotal ? sc.total : sc.cubes;
      return el("div", { class: "player-row" + (s.turn === p ? " turn" : ""), "data-player": p },
        el("div", { class: "who" }, p, role(s, p), s.turn === p ? tag("to act", "turn") : null),
        el("div", { class: "score" }, el("span", { "data-points": String(points), "data-cubes": String(sc.cubes) }, String(points)),
          el("small", {}, showTotal ? "points" : "cube points")),
        el("div", { class: "meta" }, "Control Cubes: ", (sc.control_cubes || []).length ? sc.control_cubes.map(cube) : "none",
          " · " + (sc.hand_size || 0) + (sc.hand_size === 1 ? " card" : " cards") + " in hand"),
        showTotal ? el("div", { class: "wide meta" }, "hand: " + (sc.hand_name || "—") + " (" + sc.hand + ") + cubes " + sc.cubes) : null,
        over && s.hands && s.hands[p] ? el("div", { class: "wide" }, cardRow(s.hands[p])) : null);
    }));
  }

  function tableCards(s) {
    return section("Table Cards", el("div", { class: "slots" }, (s.table || []).map((t) =>
      el("div", { class: "slot", "data-slot": String(t.slot) },
        el("span", { class: "slot-no" }, "slot " + t.slot),
        playingCard(t.card),
        t.cube ? cube(t.cube) : el("span", { class: "muted" }, "no cube")))));
  }

  function piles(s) {
    const exhausted = s.exhausted || 0;
    return el("div", { class: "stats" },
      stat("draw pile", s.draw_pile, "", "draw-pile"),
      stat("discard pile", s.discard_pile, "", "discard-pile"),
      el("div", { class: "stat", "data-stat": "discard-top" }, s.discard_top ? playingCard(s.discard_top, "small") : el("span", { class: "stat-value muted" }, "—"), el("span", { class: "stat-label" }, "discard top")),
      el("div", { class: "stat" + (exhausted >= 2 ? " warn" : ""), "data-stat": "exhausted" }, el("span", { class: "stat-value" }, exhausted + "/3"),
        el("span", { class: "stat-label" }, "draw pile ran out"), bar(exhausted, 3, { label: "the draw pile ran out " + exhausted + " of 3 times" })));
  }

  function board(b) {
    const s = b.scoreboard;
    const over = s.phase === "over";
    return el("div", { class: "hm2" },
      headline(s),
      underWay(s),
      over ? null : el("p", { class: "note public", "data-public-note": "1" },
        "Hands are hidden until the game ends, so these live scores count Control Cube points only. Each player sees their own hand's score on their player page."),
      scores(b, s),
      tableCards(s),
      piles(s),
      (s.cube_pile || []).length ? el("p", { class: "note" }, "Cube Pile: ", s.cube_pile.map(cube)) : null,
      s.once_per_game ? el("p", { class: "note" }, "Once-per-game action still available: " + (Object.entries(s.once_per_game).filter(([, v]) => v).map(([p]) => p).join(", ") || "nobody")) : null,
      el("p", { class: "note" }, "The game ends when the draw pile has run out three times."));
  }

  function view(v, player) {
    const me = (v.scores || {})[player] || {};
    const parts = [
      el("div", { class: "stats" },
        stat("your points", me.total, "", "total"),
        stat("hand", me.hand, "", "hand-points"),
        stat("cube points", me.cubes, "", "cubes"),
        stat("cards", (v.hand || []).length, (v.hand || []).length > 5 ? "warn" : "", "hand-size")),
      el("p", { class: "headline" }, "Your hand: ", el("strong", { "data-hand-name": me.hand_name || "" }, me.hand_name || "—"), v.evil_master === player ? tag("Evil Master", "bad") : tag("adventurer")),
      section(null, el("div", { class: "cards hand", "data-hand": player }, (v.hand || []).map((c) => playingCard(c)))),
    ];
    if (v.turn === player) parts.push(el("p", { class: "banner warn" }, v.must_discard ? "Your turn: discard down to five cards." : "Your turn."));
    const pending = underWay(v);
    if (pending) parts.push(pending);
    if (v.examined) parts.push(section("The adventurer's hand when you examined it", cardRow(v.examined, (c) => playingCard(c, "small"))));
    parts.push(tableCards(v));
    return el("div", { class: "hm2 view" }, parts);
  }

  // The venue's headline figures for a table of this game, from its published scoreboard.
  function summary(s) {
    return [["points", TC.games.helpers.perPlayer(s.scores, (v) => String(v.total !== null && v.total !== undefined ? v.total : v.cubes))],
      ["draw pile ran out", (s.exhausted || 0) + "/3"]];
  }

  TC.games.register("horrible-mountain-2", { board, view, card: TC.games.helpers.playingCard, summary });
})();
