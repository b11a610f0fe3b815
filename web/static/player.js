// A player's own page: their private view, refreshed on every public update, and their entries,
// made by tapping (builder.js), plus a game's own status part where it has one (where an Everest plan stands).
"use strict";
(function () {
  const el = TC.el;
  const me = document.querySelector(".me");
  const player = me.dataset.player;
  const base = "/api/p/" + encodeURIComponent(player) + "/" + encodeURIComponent(me.dataset.token);
  const answer = document.getElementById("answer");
  const entry = document.getElementById("entry");
  const gameId = entry.dataset.game;
  let asked = 0;
  let part = null;

  async function refresh() {
    const ticket = ++asked;
    const response = await fetch(base + "/view", { credentials: "same-origin", cache: "no-store" });
    if (!response.ok || ticket !== asked) return; // a newer refresh is on its way
    const data = await response.json();
    if (ticket !== asked) return;
    const mine = document.getElementById("mine");
    const open = new Set([...mine.querySelectorAll("details[open][data-key]")].map((d) => d.dataset.key));
    const view = TC.games.renderView(data.board.game, data.view, player, data.board);
    view.querySelectorAll("details[data-key]").forEach((d) => { if (open.has(d.dataset.key)) d.open = true; });
    mine.replaceChildren(view);
    // A prompt is a button: it starts that verb afresh (never with the last move's fields).
    const prompts = data.board.outcome ? [] : data.board.prompts.filter((p) => !p.who || p.who === player);
    document.getElementById("prompts").replaceChildren(...prompts.map((p) => el("div", { class: "prompt" },
      el("button", { type: "button", class: "use", "data-tap": "prompt:" + p.verb, onclick: () => builder.start(p.verb) }, p.verb.replace(/_/g, " ")), " ", p.text)));
    if (part && part.update) {
      try { part.update(data); } catch (err) { console.error("entry form", err); }
    }
    document.body.dataset.viewSeq = String(data.board.seq);
  }

  async function send(move) {
    answer.className = "answer pending";
    answer.textContent = "Sending…";
    const result = await TC.post(base + "/move", { move });
    TC.showAnswer(answer, result);
    await refresh();
    return result;
  }

  // A game's own status part (where an Everest plan stands) above the builder every game has.
  part = TC.games.entry(gameId, { player, send });
  const builder = TC.builder({
    gameId,
    fixedBy: player,
    offerUrl: base + "/offer",
    send,
    takeBack: {
      label: "Take back my last entry…",
      preview: base + "/take-back",
      post: async (seq) => { const result = await TC.post(base + "/take-back", { seq }); TC.showAnswer(answer, result); await refresh(); },
    },
  });
  entry.replaceChildren(...[part ? part.node : null, builder.node].filter(Boolean));
  // Tapping a card in your own hand starts a move with that card.
  document.getElementById("mine").addEventListener("click", (e) => {
    const tapped = e.target.closest("[data-card]");
    if (tapped && tapped.closest("[data-hand], .hand")) builder.focus(tapped.dataset.card);
  });
  refresh();
  builder.refresh();
  // A new game: a link belongs to its player at the table, so the page follows them into it (a fresh
  // page: the game's own parts differ). A player the new game does not seat goes to the scoreboard.
  async function follow() {
    let seated = false;
    try {
      const response = await fetch(base + "/view", { credentials: "same-origin", cache: "no-store" });
      seated = response.ok;
    } catch (err) {
      console.error("new game", err);
    }
    TC.leave(seated ? undefined : "/");
  }
  TC.connect({ board: () => { refresh(); builder.refresh(); }, game: follow });
})();
