// A player's own page: their private view, refreshed on every public update, and their entries
// (a game's own form when it has one, such as Everest's secret plan; else a move typed by hand).
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
    const prompts = data.board.prompts.filter((p) => !p.who || p.who === player);
    document.getElementById("prompts").replaceChildren(...prompts.map((p) => el("div", { class: "prompt" }, p.text)));
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

  function genericForm() {
    const verb = el("input", { name: "verb", placeholder: "verb, e.g. draw", autocomplete: "off" });
    const fields = el("textarea", { name: "fields", rows: 2, spellcheck: false, value: "{}" });
    const form = el("form", { id: "move-form" }, verb, fields, el("button", { type: "submit" }, "Send"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      let extra;
      try { extra = JSON.parse(fields.value || "{}"); } catch (err) {
        answer.className = "answer error";
        answer.textContent = "Fields are not valid JSON";
        return;
      }
      send(Object.assign({ do: verb.value }, extra));
    });
    return { node: el("details", { class: "panel fold" }, el("summary", {}, "Enter a move by hand"), form) };
  }

  part = TC.games.entry(gameId, { player, send }) || genericForm();
  entry.replaceChildren(part.node);
  refresh();
  TC.connect({ board: () => refresh() });
})();
