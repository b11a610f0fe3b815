// Everest: the yetis drawn on the height map, damage this round and usable coins per yeti, the
// revealed plans and the round's events; where a player's plan stands. Keys: GAME.md.
"use strict";
(function () {
  const el = TC.el;
  const svg = TC.svg;
  const { stat, tag, section, fold, playerColour, names } = TC.games.helpers;

  const W = 8, H = 6, CELL = 60, PAD = 22;
  const COIN_TEXT = { blank: "○", ace: "A", 2: "2", 3: "3", 4: "4", 5: "5" };
  const MP = { ace: 1, 2: 2, 3: 3, 4: 4, 5: 5 };
  const ARROWS = { N: "↑", E: "→", S: "↓", W: "←" };
  const PHASES = { plan: "planning", resolve: "carrying out the plans", round_end: "end of the round", over: "game over" };

  function coinAction(c) {
    if (c.face === "suit") return "snowball " + ARROWS[c.dir] + " " + c.dir;
    if (c.coin === "blank") return "roar " + ARROWS[c.dir] + " " + c.dir;
    return "move " + (MP[c.coin] || c.coin) + " " + ARROWS[c.dir] + " " + c.dir;
  }

  function cellXY(x, y) {
    return [PAD + (x - 1) * CELL, (H - y) * CELL];
  }

  // The 8x6 grid, y=6 at the top, shaded by height; homes as coloured rings; yetis as markers.
  function heightMap(b, s) {
    const heights = s.heights || [];
    const parts = [];
    for (let y = H; y >= 1; y--) {
      for (let x = 1; x <= W; x++) {
        const h = heights[y - 1] ? heights[y - 1][x - 1] : null;
        const [px, py] = cellXY(x, y);
        const known = h === null || h === undefined ? "null" : String(Math.min(6, Math.max(0, h)));
        parts.push(svg("rect", { class: "cell h-" + known, x: px, y: py, width: CELL, height: CELL, "data-x": x, "data-y": y, "data-height": h === null ? "notch" : h }));
        if (h === null || h === undefined) {
          parts.push(svg("line", { class: "notch-mark", x1: px + 8, y1: py + 8, x2: px + CELL - 8, y2: py + CELL - 8 }));
          parts.push(svg("line", { class: "notch-mark", x1: px + CELL - 8, y1: py + 8, x2: px + 8, y2: py + CELL - 8 }));
        } else {
          parts.push(svg("text", { class: "cell-height", x: px + 4, y: py + 11 }, String(h)));
        }
      }
    }
    for (let x = 1; x <= W; x++) parts.push(svg("text", { class: "axis", x: PAD + (x - 0.5) * CELL, y: H * CELL + 14 }, String(x)));
    for (let y = 1; y <= H; y++) parts.push(svg("text", { class: "axis", x: PAD / 2, y: (H - y + 0.5) * CELL + 4 }, String(y)));
    const peak = s.peak_tile || [];
    if (peak.length) {
      const xs = peak.map((p) => p[0]), ys = peak.map((p) => p[1]);
      const [px, py] = cellXY(Math.min(...xs), Math.max(...ys));
      parts.push(svg("rect", { class: "peak-outline", x: px + 2, y: py + 2, width: (Math.max(...xs) - Math.min(...xs) + 1) * CELL - 4, height: (Math.max(...ys) - Math.min(...ys) + 1) * CELL - 4 }));
    }
    for (const [p, home] of Object.entries(s.homes || {})) {
      const [px, py] = cellXY(home[0], home[1]);
      parts.push(svg("rect", { class: "home-mark " + playerColour(b, p), x: px + 4, y: py + 4, width: CELL - 8, height: CELL - 8, rx: 6, "data-home": p }));
    }
    const taken = {};
    for (const p of b.players) {
      const pos = (s.positions || {})[p];
      if (!pos) continue;
      const key = pos[0] + "," + pos[1];
      const nth = taken[key] || 0;
      taken[key] = nth + 1;
      const [px, py] = cellXY(pos[0], pos[1]);
      const cx = px + CELL / 2 + nth * 10, cy = py + CELL / 2 + nth * 10;
      parts.push(svg("g", { class: "yeti " + playerColour(b, p), "data-player": p, "data-x": pos[0], "data-y": pos[1], transform: "translate(" + cx + " " + cy + ")" },
        svg("title", {}, p + " at (" + pos[0] + "," + pos[1] + ")"),
        svg("circle", { r: 21 }),
        svg("text", { x: 0, y: 1 }, p.slice(0, 1).toUpperCase())));
    }
    return svg("svg", { class: "everest-map", viewBox: "0 0 " + (PAD + W * CELL + 2) + " " + (H * CELL + 20), role: "img", "aria-label": "the mountain: heights and where each yeti stands" }, parts);
  }

  function coinPips(usable) {
    const n = Math.max(0, Math.min(6, usable || 0));
    return el("span", { class: "coins", title: n + " usable coins" }, [0, 1, 2, 3, 4, 5].map((i) => el("span", { class: "coin" + (i < n ? "" : " aside") }, "")));
  }

  function headline(s) {
    const parts = [el("strong", { "data-stat": "round" }, "Round " + s.round), el("span", { "data-stat": "phase" }, PHASES[s.phase] || s.phase)];
    if (s.step) parts.push(el("span", {}, "coin " + s.step + " of 3"));
    if (s.peak) parts.push(el("span", {}, "alone on the peak: " + s.peak));
    return el("p", { class: "headline" }, parts);
  }

  function waiting(s) {
    const w = s.waiting;
    if (!w) return null;
    return el("p", { class: "waiting-box", "data-waiting": w.verb }, "Waiting for " + w.why + ": " + names(w.players));
  }

  // EV-CONFLICT: "conflict: red, blue, green — roll" until the high roller's order is in, with why.
  function conflictLine(s) {
    const c = s.conflict;
    if (!c) return null;
    return el("p", { class: "waiting-box", "data-conflict": c.awaiting, title: c.why || "" }, c.line,
      c.why ? el("small", { class: "muted" }, " (" + c.why + ")") : null);
  }

  function yetiRows(b, s) {
    const planned = new Set(s.planned || []);
    return el("div", { class: "players" }, b.players.map((p) => {
      const pos = (s.positions || {})[p];
      const dmg = (s.damage || {})[p] || 0;
      const usable = (s.coins || {})[p] || 0;
      return el("div", { class: "player-row", "data-player": p },
        el("div", { class: "who" }, el("span", { class: "swatch " + playerColour(b, p) }), p,
          s.peak_holder === p ? tag("holds the peak", "good") : null,
          s.winner === p ? tag("winner", "good") : null,
          s.phase === "plan" ? (planned.has(p) ? tag("plan in", "good") : usable ? tag("planning…", "warn") : tag("dazed")) : null),
        el("div", { class: "score" }, el("span", { class: "dmg" + (dmg ? " hit" : ""), "data-damage": String(dmg) }, String(dmg)), el("small", {}, "damage")),
        el("div", { class: "meta" }, pos ? "at (" + pos[0] + "," + pos[1] + ")" : "off the board", " · ",
          el("span", { "data-coins": String(usable) }, usable + " usable " + (usable === 1 ? "coin" : "coins")), " ", coinPips(usable)));
    }));
  }

  function plans(b, s) {
    const entries = Object.entries(s.plans || {});
    if (!entries.length) return null;
    return section("Plans (revealed)", el("table", { class: "plans" }, el("tbody", {}, entries.map(([p, coins]) =>
      el("tr", { "data-player": p }, el("th", {}, el("span", { class: "swatch " + playerColour(b, p) }), p),
        el("td", {}, coins.length ? coins.map((c, i) => el("span", { class: "plan-coin" + (s.step === i + 1 ? " now" : "") }, (i + 1) + ". " + coinAction(c))) : el("span", { class: "muted" }, "dazed (no coins)")))))));
  }

  function events(s) {
    const list = s.events || [];
    if (!list.length) return null;
    return section("This round", el("ul", { class: "events" }, list.slice().reverse().map((e) => el("li", {}, e))));
  }

  function board(b) {
    const s = b.scoreboard;
    const off = s.off_board || [];
    return el("div", { class: "everest" },
      headline(s),
      conflictLine(s),
      waiting(s),
      // The yetis (damage first, as big as Escape Master's faults) above the map on a phone; on the
      // big screen the map takes the left column.
      el("div", { class: "ev-layout" },
        el("div", { class: "ev-yetis" },
          off.length ? el("p", { class: "note", "data-off-board": off.join(",") }, "Off the board until the round ends: " + off.join(", ")) : null,
          yetiRows(b, s),
          plans(b, s)),
        el("div", { class: "map-wrap" }, heightMap(b, s),
          el("p", { class: "legend" }, "Darker is lower, white is the peak (height 5); ✕: a notch, off the board; dashed: the peak tile; coloured squares: home bases."))),
      events(s));
  }

  function view(v, player, b) {
    const boardLike = b || { players: Object.keys(v.positions || {}) };
    const pos = (v.positions || {})[player];
    const parts = [
      el("div", { class: "stats" },
        stat("damage this round", (v.damage || {})[player] || 0, (v.damage || {})[player] ? "bad" : "", "damage"),
        stat("usable coins", (v.coins || {})[player] || 0, "", "coins"),
        stat("your yeti", pos ? "(" + pos[0] + "," + pos[1] + ")" : "off", "", "position"),
        stat("round", v.round, "", "round")),
    ];
    if ((v.aside_named || []).length) parts.push(el("p", { class: "note" }, "Set aside until you heal: " + v.aside_named.map((c) => COIN_TEXT[c] || c).join(", ")));
    parts.push(el("div", { class: "map-wrap" }, heightMap(boardLike, v)));
    const revealed = plans(boardLike, v);
    if (revealed) parts.push(revealed);
    const ev = events(v);
    if (ev) parts.push(fold("ev-events", "This round's events", ev));
    return el("div", { class: "everest view" }, parts);
  }

  // -- the plan's status on a player's page ---------------------------------------------------------
  // The plan itself is entered with the move builder every page has (its coin tiles read "move 2 ↑ N",
  // "snowball (3) ← W"; one way to plan, and a plan the rules refuse can still be sent on
  // purpose). This part only says where the player stands: plan open, locked in, dazed, revealed.

  function planStatus(ctx) {
    const node = el("div", { class: "plan-entry" });

    function lockedBox(v, waitingFor) {
      return el("div", { class: "locked", "data-locked": "1" },
        el("strong", {}, "Plan locked in"),
        el("p", {}, (v.plan || []).map((c, i) => el("span", { class: "plan-coin" }, (i + 1) + ". " + coinAction(c)))),
        el("p", {}, waitingFor.length ? "Waiting for the others: " + waitingFor.join(", ") + "." : "Everyone is in."),
        el("p", { class: "note" }, "You may change it until the last plan is in (plan again below); then all plans are revealed together."));
    }

    function update(data) {
      const v = data.view;
      const me = ctx.player;
      const usable = (v.coins || {})[me] || 0;
      const waitingFor = (v.waiting && v.waiting.verb === "plan" ? v.waiting.players : []).filter((p) => p !== me);
      if (v.phase !== "plan") {
        const w = v.waiting;
        const rollNow = w && w.verb === "roll" && (w.players || []).includes(me);
        // replaceChildren writes a null as the text "null": leave the roll box out when no roll is asked
        node.replaceChildren(...[
          rollNow ? el("p", { class: "roll-box", "data-roll-for": w.why }, el("strong", {}, "Roll your die (" + w.why + ") and tap what it shows below.")) : null,
          el("p", { class: "waiting-box", "data-plan-state": "revealed" },
            v.phase === "over" ? "The game is over." : "Plans are revealed: the round is being carried out. Your next plan opens when the round ends.")].filter(Boolean));
        return;
      }
      if (usable === 0) {
        node.replaceChildren(el("p", { class: "waiting-box", "data-plan-state": "dazed" }, "Your yeti has no usable coin: it stands there dazed this round. No plan is needed."));
        return;
      }
      const count = Math.min(3, usable);
      node.replaceChildren(v.plan ? lockedBox(v, waitingFor) : el("p", { class: "note", "data-plan-state": "open" },
        "Plan " + count + (count === 1 ? " coin" : " coins") + " below, in secret: first to last. Nobody sees it until every plan is in."));
    }

    return { node, update };
  }

  // The venue's headline figures for a table of this game, from its published scoreboard.
  function summary(s) {
    return [["damage", TC.games.helpers.perPlayer(s.damage, String)], ["round", s.round]];
  }

  TC.games.register("everest", { board, view, entry: planStatus, summary });
})();
