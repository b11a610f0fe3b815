// Escape Master: fault totals against the Breaking Point, this round's faults, the central piles,
// the round history; a player's own hand. Keys: GAME.md ("Scoreboard").
"use strict";
(function () {
  const el = TC.el;
  const { bar, stat, tag, section, fold, names } = TC.games.helpers;

  const TRIBES = ["joe", "mouse", "lumberjack", "teen", "robot", "ninja"];
  const RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const PHASES = {
    dealing: "dealing",
    waiting_for_start: "waiting for Start!",
    playing: "playing",
    counting: "counting the faults",
    round_over: "round over",
    game_over: "game over",
  };

  // What a card looks like: [big text, small text, look class]. Names per NOTATION.md.
  function face(name) {
    const parts = String(name).split("-");
    if (TRIBES.includes(parts[0])) return [parts[1], parts[0], "em-" + parts[0]];
    switch (parts[0]) {
      case "start": return ["7", "start", "em-start"];
      case "wisdom": return ["W", "wisdom", "em-wisdom"];
      case "dead": return ["✕", "dead end", "em-dead"];
      case "doom": return [parts[1], "doom", "em-doom"];
      case "trap":
        return [{ up: "↑", down: "↓", draw: "+3" }[parts[1]] || "?", "trap " + (parts[1] === "draw" ? "draw" : parts[1]), "em-trap"];
      case "escape":
        return parts[1] === "discard" ? ["E+", "escape+discard", "em-escape"] : ["E", "escape", "em-escape"];
      default: return [name, "", ""];
    }
  }

  function card(name, extra) {
    if (!name) return el("span", { class: "card empty" + (extra ? " " + extra : "") }, "—");
    const [big, small, look] = face(name);
    // The title is the card as a person names it: a copy's own number (start-3) is the engine's.
    const copy = !TRIBES.includes(String(name).split("-")[0]) && String(name).split("-")[0] !== "doom";
    return el("span", { class: "card em " + look + (extra ? " " + extra : ""), "data-card": name, title: copy ? String(name).replace(/-\d+$/, "") : name },
      el("span", { class: "rank" }, big), small ? el("span", { class: "sub" }, small) : null);
  }

  function sortKey(name) {
    const parts = String(name).split("-");
    const tribe = TRIBES.indexOf(parts[0]);
    if (tribe >= 0) return [0, RANKS.indexOf(parts[1]), tribe];
    const order = ["start", "wisdom", "trap", "escape", "dead", "doom"];
    return [1, order.indexOf(parts[0]), name];
  }

  function sortHand(cards) {
    return cards.slice().sort((a, b) => {
      const ka = sortKey(a), kb = sortKey(b);
      for (let i = 0; i < ka.length; i++) {
        if (ka[i] < kb[i]) return -1;
        if (ka[i] > kb[i]) return 1;
      }
      return 0;
    });
  }

  function headline(s) {
    const goal = s.fixed_rounds ? "round " + s.round + " of " + s.fixed_rounds : "Breaking Point " + s.breaking_point;
    return el("p", { class: "headline" },
      el("strong", { "data-stat": "round" }, "Round " + s.round),
      el("span", { "data-stat": "phase" }, PHASES[s.phase] || s.phase),
      el("span", {}, "dealer " + s.dealer),
      el("span", {}, "draw pile " + s.draw_pile),
      el("span", {}, goal));
  }

  function callouts(s) {
    const out = [];
    if (s.draw_call) out.push(el("p", { class: "banner warn" }, "Draw! called by " + s.draw_call.caller + " — still to draw: " + names(s.draw_call.to_draw)));
    for (const [p, n] of Object.entries(s.owed_draws || {})) out.push(el("p", { class: "banner warn" }, p + " must draw " + n + (n === 1 ? " card" : " cards") + " (Draw +3)"));
    if (s.out && s.out.length && s.phase !== "round_over") out.push(el("p", { class: "banner warn" }, "Escape Master! " + s.out.join(", ") + (s.out.length > 1 ? " are" : " is") + " out"));
    if (s.tiebreak) out.push(el("p", { class: "banner warn" }, "Extra round to break the tie: only " + s.tiebreak.join(", ") + " play"));
    return out;
  }

  function playerRows(board, s) {
    const bp = s.breaking_point || 30;
    const order = board.players.slice().sort((a, b) => (s.faults[a] || 0) - (s.faults[b] || 0));
    const playing = new Set(s.players_in || board.players);
    return el("div", { class: "players" }, order.map((p) => {
      const faults = s.faults[p] || 0;
      const round = (s.round_faults || {})[p] || 0;
      const left = (s.to_breaking_point || {})[p];
      const leader = (s.leaders || {})[p];
      const traps = (s.traps || {})[p] || [];
      const meta = [
        "+" + round + " this round",
        (s.hand_sizes || {})[p] !== undefined ? s.hand_sizes[p] + (s.hand_sizes[p] === 1 ? " card" : " cards") + " in hand" : null,
        s.fixed_rounds ? null : (left !== undefined ? left + " to the Breaking Point" : null),
      ].filter(Boolean).join(" · ");
      return el("div", { class: "player-row" + (playing.has(p) ? "" : " out-of-play"), "data-player": p },
        el("div", { class: "who" }, p,
          s.dealer === p ? tag("dealer") : null,
          (s.out || []).includes(p) ? tag("out", "good") : null,
          (s.beast || {})[p] ? tag("Beast Mode", "bad") : null,
          leader ? tag(leader.tribe + (leader.lost_this_round ? " (lost)" : "")) : null),
        el("div", { class: "score" }, el("span", { class: "faults", "data-faults": String(faults) }, String(faults)), el("small", {}, "faults")),
        el("div", { class: "meta" }, el("span", { class: "round-faults", "data-round-faults": String(round) }, meta)),
        el("div", { class: "wide" }, bar(faults, bp, { label: faults + " of " + bp + " faults" })),
        traps.length ? el("div", { class: "wide meta" }, "trapped: ", traps.map((t) => card(t, "small"))) : null);
    }));
  }

  function teams(s) {
    if (!s.teams) return null;
    return section("Teams (Escape Alliance)", el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, "team"), el("th", { class: "num" }, "faults"), el("th", { class: "num" }, "this round"))),
      el("tbody", {}, s.teams.map((t) => el("tr", {}, el("td", {}, t.players.join(" & ")),
        el("td", { class: "num" }, String(t.faults)), el("td", { class: "num" }, String(t.round_faults)))))));
  }

  function piles(s) {
    // A pile's number is its place on the table: a closed pile and the one started after it at the
    // same place share it. The newest at each place is shown; an older one says it is earlier.
    const all = s.piles || [];
    const newest = {};
    all.forEach((pile, i) => { newest[pile.pile || i + 1] = i; });
    const items = all.map((pile, i) => el("li", { class: "pile" + (pile.open ? "" : " closed"), "data-pile": String(pile.pile || i + 1) },
      el("span", { class: "pile-no" }, "pile " + (pile.pile || i + 1) + (newest[pile.pile || i + 1] === i ? "" : " (earlier)")),
      card(pile.top),
      el("span", { class: "pile-count" }, (pile.cards || 0) + (pile.cards === 1 ? " card" : " cards")),
      pile.half ? el("span", { class: "pile-count" }, "half: ", card(pile.half, "small")) : null,
      pile.open ? null : tag("closed")));
    return section("Piles", items.length ? el("ul", { class: "em-piles" }, items) : el("p", { class: "muted" }, "No pile yet: a start card or a Wisdom starts one."));
  }

  function history(board, s) {
    const rounds = s.rounds || [];
    if (!rounds.length) return null;
    const how = (r) => {
      const out = r.out && r.out.length ? r.out.join(" & ") : "";
      if (r.ended === "draw_pile_empty") return "draw pile empty" + (out ? "; " + out + " out" : "");
      return out ? out + " out" : r.ended || "";
    };
    const rows = rounds.slice().reverse().map((r) => el("tr", { "data-round": String(r.round) },
      el("td", {}, String(r.round)),
      board.players.map((p) => el("td", { class: (r.out || []).includes(p) ? "good" : "" }, r.faults[p] === undefined ? "–" : String(r.faults[p]))),
      el("td", { class: "meta" }, how(r))));
    const total = el("tr", { class: "total" }, el("td", {}, "total"), board.players.map((p) => el("td", {}, String(s.faults[p] || 0))), el("td", {}, ""));
    return section("Round history", el("div", { class: "scroll" }, el("table", { class: "history" },
      el("thead", {}, el("tr", {}, el("th", {}, "round"), board.players.map((p) => el("th", {}, p)), el("th", {}, "end"))),
      el("tbody", {}, rows, total))));
  }

  function story(s) {
    const st = s.story || {};
    const lines = [];
    if (st.eligible && st.eligible.length) {
      lines.push(el("p", {}, "Story card: " + st.eligible.join(", ") + (st.why ? " — " + st.why : "") + (st.drawn ? " (drawn)" : " (to draw)")));
    } else if (st.why) {
      lines.push(el("p", { class: "muted" }, "Story card: nobody — " + st.why));
    }
    const inEffect = Object.entries(s.stories || {});
    if (inEffect.length) lines.push(el("p", {}, "In effect: " + inEffect.map(([p, c]) => p + " (Story card " + c + ")").join(", ")));
    if (s.doom_pile && s.doom_pile.length) lines.push(el("p", {}, "Doom pile: ", s.doom_pile.map((c) => card(c, "small"))));
    return lines.length ? section("Story", lines) : null;
  }

  function leaders(board, s) {
    const rows = board.players.map((p) => {
      const l = (s.leaders || {})[p];
      return el("tr", {}, el("td", {}, p), el("td", {}, l ? l.tribe : "—"),
        el("td", { class: "num" }, String((s.xp || {})[p] || 0)),
        el("td", { class: "leader-text" }, l ? l.text : "no leader"));
    });
    return fold("em-leaders", "Escape Leaders and XP", el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, "player"), el("th", {}, "leader"), el("th", { class: "num" }, "XP"), el("th", {}, "ability"))),
      el("tbody", {}, rows)));
  }

  function board(b) {
    const s = b.scoreboard;
    return el("div", { class: "em" }, headline(s), callouts(s), playerRows(b, s), teams(s), piles(s), history(b, s), story(s), leaders(b, s));
  }

  function view(v, player) {
    const hand = sortHand(v.hand || []);
    const traps = (v.traps || {})[player] || [];
    const faults = (v.faults || {})[player] || 0;
    const parts = [
      el("div", { class: "stats" },
        stat("your faults", faults, faults >= (v.breaking_point || 30) * 0.8 ? "bad" : "", "faults"),
        stat("this round", (v.round_faults || {})[player] || 0, "", "round-faults"),
        stat("cards in hand", hand.length, "", "hand-size"),
        stat("round", v.round, "", "round")),
      section("Your hand", hand.length ? el("div", { class: "cards hand", "data-hand": player }, hand.map((c) => card(c))) : el("p", { class: "muted" }, "No cards in your hand.")),
    ];
    if (traps.length) parts.push(el("p", { class: "banner warn" }, "You are trapped: ", traps.map((t) => card(t, "small"))));
    if (v.phase === "playing") {
      parts.push(el("p", { class: "note" }, v.can_draw ? "You may draw: you have no playable card." : "No drawing now: you can play (or a draw is not yours to take)."));
    }
    if (v.discards) parts.push(el("p", { class: "note" }, "You may discard " + v.discards + (v.discards === 1 ? " card" : " cards") + " to your history pile."));
    if (v.teammate) {
      parts.push(section("Teammate " + v.teammate + "'s hand", el("div", { class: "cards" }, sortHand(v.teammate_hand || []).map((c) => card(c, "small")))));
    }
    const open = (v.piles || []).filter((p) => p.open);
    parts.push(section("Piles", open.length ? el("div", { class: "cards" }, open.map((p) => card(p.top, "small"))) : el("p", { class: "muted" }, "No pile yet.")));
    if ((v.history || []).length) {
      parts.push(fold("em-history", "Your history pile (face down; " + v.history.length + ")", el("div", { class: "cards" }, v.history.map((c) => card(c, "small")))));
    }
    return el("div", { class: "em view" }, parts);
  }

  // The venue's headline figures for a table of this game, from its published scoreboard.
  function summary(s) {
    return [["faults (breaking point " + s.breaking_point + ")", TC.games.helpers.perPlayer(s.faults, String)], ["round", s.round]];
  }

  TC.games.register("escape-master", { board, view, card, summary });
})();
