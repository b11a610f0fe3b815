// The scoreboard page: renders the board on every update, lists the latest moves.
"use strict";
(function () {
  const el = TC.el;
  const boardNode = document.getElementById("board");
  const recent = document.getElementById("recent");

  function renderList(node, items, make) {
    node.replaceChildren(...items.map(make));
    node.hidden = items.length === 0;
  }

  function render(board) {
    document.body.dataset.boardSeq = String(board.seq);
    renderList(document.getElementById("alerts"), board.alerts, (a) =>
      el("div", { class: "alert" }, el("strong", {}, a.zone + ": "), a.what, " — ", el("em", {}, a.fix)));
    renderList(document.getElementById("prompts"), board.prompts, (p) =>
      el("div", { class: "prompt" }, p.who ? el("strong", {}, p.who + ": ") : null, p.text));
    const outcome = document.getElementById("outcome");
    outcome.hidden = !board.outcome;
    if (board.outcome) outcome.replaceChildren(el("h2", {}, "Game over"), TC.games.outcomeText(board));
    boardNode.replaceChildren(TC.games.render(board));
    const health = Object.entries(board.health || {});
    renderList(document.getElementById("health"), health, ([name, h]) =>
      el("span", { class: "reader " + (h.status === "ok" ? "ok" : "bad"), title: JSON.stringify(h) }, name + ": " + h.status));
  }

  function addRow(row) {
    if (!row.move && !row.alert && !row.error) return;
    const v = row.verdict;
    const cls = row.alert ? "alert" : row.error ? "error" : v && !v.ok ? "illegal" : "legal";
    const who = row.move && row.move.by ? row.move.by + " " : "";
    const text = row.alert ? row.alert.zone + ": " + row.alert.what
      : row.error ? row.error
      : who + TC.moveText(row.move) + (v && !v.ok ? " — " + v.rules.join(", ") + ": " + v.why : "");
    recent.prepend(el("li", { class: cls, "data-seq": String(row.seq) }, text));
    while (recent.children.length > 12) recent.lastChild.remove();
  }

  TC.connect({ board: render, row: addRow });
})();
