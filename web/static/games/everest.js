// Everest: the yetis drawn on the height map, damage this round and usable coins per yeti, the
// revealed plans and the round's events; a player's secret plan form. Keys: docs/games/everest.md.
"use strict";
(function () {
  const el = TC.el;
  const svg = TC.svg;
  const { stat, tag, section, fold, playerColour, names } = TC.games.helpers;

  const W = 8, H = 6, CELL = 60, PAD = 22;
  const COINS = ["blank", "ace", "2", "3", "4", "5"];
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

  // -- the secret plan form ---------------------------------------------------------------------

  function radio(name, value, text, cls) {
    return el("label", { class: cls || "" }, el("input", { type: "radio", name, value }), el("span", {}, text));
  }

  function planEntry(ctx) {
    const node = el("div", { class: "plan-entry" });
    const status = el("div", { class: "plan-status" });
    const form = el("form", { id: "plan-form", class: "plan" });
    const summary = el("p", { class: "plan-summary", "aria-live": "polite" });
    const submit = el("button", { type: "submit", class: "primary" }, "Lock in my plan");
    const steps = el("div", { class: "plan-steps" });
    form.append(el("h3", {}, "Your secret plan"), steps, summary, submit);
    node.append(status, form);
    let shape = null;
    let editing = false;
    let last = null;

    function chosen(step, what) {
      const input = step.querySelector('input[name="' + what + "-" + step.dataset.step + '"]:checked');
      return input ? input.value : null;
    }

    function coinsOf() {
      return [...steps.querySelectorAll("fieldset.plan-step")].map((fs) => ({ coin: chosen(fs, "coin"), face: chosen(fs, "face"), dir: chosen(fs, "dir") }));
    }

    function sync() {
      const picked = coinsOf();
      steps.querySelectorAll("fieldset.plan-step").forEach((fs, i) => {
        fs.querySelectorAll('input[name^="coin-"]').forEach((input) => {
          const usedElsewhere = picked.some((c, j) => j !== i && c.coin === input.value);
          input.disabled = usedElsewhere || input.dataset.aside === "1";
        });
        const c = picked[i];
        const move = fs.querySelector('input[value="value"] + span');
        move.textContent = c.coin === "blank" ? "Roar" : c.coin ? "Move " + (MP[c.coin] || c.coin) : "Move / roar";
      });
      summary.textContent = picked.map((c, i) => (i + 1) + ": " + (c.coin && c.face && c.dir ? coinAction(c) : "…")).join(" · ");
    }

    function build(count, aside) {
      steps.replaceChildren(...Array.from({ length: count }, (_, k) => {
        const i = k + 1;
        return el("fieldset", { class: "plan-step", "data-step": String(i) },
          el("legend", {}, ["1st", "2nd", "3rd"][k] + " coin"),
          el("span", { class: "choice-label" }, "Coin"),
          el("div", { class: "choices coin-choices" }, COINS.map((c) => {
            const label = radio("coin-" + i, c, c);
            if (aside.includes(c)) label.querySelector("input").dataset.aside = "1";
            return label;
          })),
          el("div", { class: "plan-how" },
            el("div", {},
              el("span", { class: "choice-label" }, "Use it to"),
              el("div", { class: "choices face-choices" }, radio("face-" + i, "value", "Move / roar"), radio("face-" + i, "suit", "Snowball"))),
            el("div", {},
              el("span", { class: "choice-label" }, "Direction"),
              el("div", { class: "choices dirs" }, ["N", "W", "E", "S"].map((d) => radio("dir-" + i, d, ARROWS[d] + " " + d, "d-" + d)),
                el("span", { class: "centre" }, "yeti")))));
      }));
      sync();
    }

    form.addEventListener("change", sync);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const coins = coinsOf();
      const missing = coins.findIndex((c) => !c.coin || !c.face || !c.dir);
      if (missing >= 0) {
        summary.textContent = "Choose a coin, what to do with it and a direction for coin " + (missing + 1) + ".";
        summary.className = "plan-summary error";
        return;
      }
      summary.className = "plan-summary";
      submit.disabled = true;
      try {
        const answer = await ctx.send({ do: "plan", coins });
        if (answer.status === 200) editing = false;
      } finally {
        submit.disabled = false;
        if (last) update(last);
      }
    });

    function lockedBox(v, waitingFor) {
      const change = el("button", { type: "button", class: "change" }, "Change my plan");
      change.addEventListener("click", () => { editing = true; update(last); });
      return el("div", { class: "locked", "data-locked": "1" },
        el("strong", {}, "Plan locked in"),
        el("p", {}, (v.plan || []).map((c, i) => el("span", { class: "plan-coin" }, (i + 1) + ". " + coinAction(c)))),
        el("p", {}, waitingFor.length ? "Waiting for the others: " + waitingFor.join(", ") + "." : "Everyone is in."),
        el("p", { class: "note" }, "You may change it until the last plan is in; then all plans are revealed together."),
        change);
    }

    // The game asks this player for a die roll (a conflict, a roar check or reaction): one tap.
    function rollBox(w) {
      const buttons = COINS.map((face) => {
        const b = el("button", { type: "button", class: "die", "data-roll": face }, face);
        b.addEventListener("click", async () => {
          buttons.forEach((x) => { x.disabled = true; });
          await ctx.send({ do: "roll", value: face });
        });
        return b;
      });
      return el("div", { class: "roll-box", "data-roll-for": w.why },
        el("strong", {}, "Roll your die (" + w.why + ") and tap what it shows:"),
        el("div", { class: "dice" }, buttons));
    }

    function update(data) {
      last = data;
      const v = data.view;
      const me = ctx.player;
      const usable = (v.coins || {})[me] || 0;
      const planning = v.phase === "plan";
      const mine = Boolean(v.plan);
      const waitingFor = (v.waiting && v.waiting.verb === "plan" ? v.waiting.players : []).filter((p) => p !== me);
      if (!planning) {
        editing = false;
        const w = v.waiting;
        const rollNow = w && w.verb === "roll" && (w.players || []).includes(me);
        status.replaceChildren(
          rollNow ? rollBox(w) : null,
          el("p", { class: "waiting-box", "data-plan-state": "revealed" },
            v.phase === "over" ? "The game is over." : "Plans are revealed: the round is being carried out. Your next plan opens when the round ends."));
        form.hidden = true;
        return;
      }
      if (usable === 0) {
        status.replaceChildren(el("p", { class: "waiting-box", "data-plan-state": "dazed" }, "Your yeti has no usable coin: it stands there dazed this round. No plan is needed."));
        form.hidden = true;
        return;
      }
      const count = Math.min(3, usable);
      const aside = v.aside_named || [];
      const key = count + "|" + aside.join(",") + "|" + v.round;
      if (key !== shape) {
        shape = key;
        build(count, aside);
      }
      if (mine && !editing) {
        status.replaceChildren(lockedBox(v, waitingFor));
        form.hidden = true;
      } else {
        status.replaceChildren(el("p", { class: "note", "data-plan-state": "open" },
          "Plan " + count + (count === 1 ? " coin" : " coins") + ", in secret: first to last. Nobody sees it until every plan is in."));
        form.hidden = false;
      }
    }

    return { node, update };
  }

  TC.games.register("everest", { board, view, entry: planEntry });
})();
