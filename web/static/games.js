// One renderer per game for the scoreboard panel; a generic table for anything else.
"use strict";
(function () {
  const el = TC.el;

  function generic(value) {
    if (value === null || value === undefined) return el("span", { class: "none" }, "—");
    if (Array.isArray(value)) return el("span", {}, value.map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v))).join(", "));
    if (typeof value === "object") {
      return el("table", { class: "kv" }, Object.entries(value).map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, generic(v)))));
    }
    return el("span", {}, String(value));
  }

  function progress(value, max, label) {
    const pct = Math.max(0, Math.min(100, (100 * value) / max));
    return el("div", { class: "progress", role: "progressbar", "aria-valuenow": String(value), "aria-valuemax": String(max), title: label },
      el("div", { class: "fill" + (pct >= 80 ? " hot" : ""), style: "width:" + pct + "%" }));
  }

  function escapeMaster(board) {
    const s = board.scoreboard;
    const bp = s.breaking_point || 30;
    const players = board.players.slice().sort((a, b) => (s.faults[a] || 0) - (s.faults[b] || 0));
    const rows = players.map((p) => el("tr", { "data-player": p },
      el("th", {}, p, s.dealer === p ? el("span", { class: "tag" }, "dealer") : null),
      el("td", { class: "big" }, String(s.faults[p] || 0)),
      el("td", {}, progress(s.faults[p] || 0, bp, (s.faults[p] || 0) + " of " + bp)),
      el("td", {}, String((s.round_faults || {})[p] || 0)),
      el("td", {}, s.hand_sizes ? String(s.hand_sizes[p] ?? "") : "")));
    const piles = (s.piles || []).map((pile, i) => el("li", { class: "pile" + (pile.open ? "" : " closed") },
      el("span", { class: "pile-no" }, "pile " + (pile.number || i + 1)), el("span", { class: "card" }, pile.top || "—"),
      pile.open ? null : el("span", { class: "tag" }, "closed")));
    const story = s.story_draw !== undefined ? el("p", { class: "story" }, "Story card: " + (s.story_draw || "nobody")) : null;
    const history = (s.round_history || []).map((r, i) => el("tr", {}, el("th", {}, "round " + (r.round || i + 1)),
      board.players.map((p) => el("td", {}, String(((r.faults || r)[p]) ?? "")))));
    return el("div", { class: "em" },
      el("p", { class: "round" }, "Round " + s.round + (s.phase ? " · " + s.phase : "")),
      el("table", { class: "scores" },
        el("thead", {}, el("tr", {}, el("th", {}, "player"), el("th", {}, "faults"), el("th", {}, "Breaking Point " + bp), el("th", {}, "this round"), el("th", {}, "cards in hand"))),
        el("tbody", {}, rows)),
      el("h3", {}, "Piles"), el("ul", { class: "piles" }, piles),
      story,
      history.length ? el("details", {}, el("summary", {}, "Round history"),
        el("table", { class: "history" }, el("tr", {}, el("th", {}, ""), board.players.map((p) => el("th", {}, p))), history)) : null);
  }

  const renderers = { "escape-master": escapeMaster };
  const viewRenderers = {};

  TC.games = {
    renderers,
    viewRenderers,
    render(board) {
      const render = renderers[board.game];
      if (render) {
        try { return render(board); } catch (err) { console.error(err); }
      }
      return el("div", { class: "generic" }, generic(board.scoreboard));
    },
    renderView(gameId, view, player) {
      const render = viewRenderers[gameId];
      if (render) {
        try { return render(view, player); } catch (err) { console.error(err); }
      }
      return el("div", { class: "generic view" }, generic(view));
    },
    outcomeText(board) {
      const o = board.outcome;
      const w = o.winner;
      const who = Array.isArray(w) ? w.join(" & ") : w;
      if (o.won !== undefined) return el("p", {}, (o.won ? "Won" : "Lost") + (o.score !== undefined ? " · score " + o.score : ""));
      return el("p", {}, who ? "Winner: " + who : "Nobody wins", o.reason ? " — " + o.reason : "");
    },
  };
})();
