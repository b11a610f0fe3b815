// The log page: every row with its verdict, rule id and sentence; the rule's passage on click.
"use strict";
(function () {
  const el = TC.el;
  const body = document.getElementById("rows");
  const playerSel = document.getElementById("player");
  const illegalBox = document.getElementById("illegal");
  let rules = {};

  function keep(row) {
    if (illegalBox.checked && !(row.verdict && !row.verdict.ok)) return false;
    const p = playerSel.value;
    if (p && !(row.move && (row.move.by === p || row.move.target === p || row.move.to === p))) return false;
    return Boolean(row.move || row.alert || row.error || row.note);
  }

  function showRule(id) {
    const r = rules[id];
    if (!r) return;
    document.getElementById("rule-title").textContent = r.id + " — " + r.title;
    document.getElementById("rule-source").textContent = r.source;
    document.getElementById("rule-passage").textContent = r.passage;
    document.getElementById("rule").showModal();
  }

  function verdictCell(row) {
    if (row.alert) return el("td", { class: "alert" }, "unexplained: " + row.alert.what + " — " + row.alert.fix);
    if (row.error) return el("td", { class: "error" }, row.error);
    if (row.note) return el("td", { class: "note" }, row.note.health + ": " + row.note.status);
    const v = row.verdict;
    if (!v) return el("td", {}, "");
    if (v.ok) return el("td", { class: "legal" }, "legal");
    return el("td", { class: "illegal" },
      ...v.rules.map((id) => el("button", { class: "rule", type: "button", onclick: () => showRule(id) }, id)),
      " ", v.why, v.fix ? el("div", { class: "fix" }, v.fix) : null);
  }

  function rowNode(row) {
    const when = row.table_time ? new Date(row.table_time * 1000).toISOString().slice(11, 23) : "";
    return el("tr", { "data-seq": String(row.seq), class: row.verdict && !row.verdict.ok ? "illegal" : "" },
      el("td", {}, String(row.seq)), el("td", { class: "time" }, when),
      el("td", {}, (row.move && row.move.by) || row.source),
      el("td", {}, row.kind === "undo" ? "undo: " + TC.moveText(row.move) : TC.moveText(row.move)),
      verdictCell(row));
  }

  let loadedTo = 0;
  async function load() {
    const params = new URLSearchParams({ limit: "500" });
    if (playerSel.value) params.set("player", playerSel.value);
    if (illegalBox.checked) params.set("illegal", "1");
    let after = 0;
    body.replaceChildren();
    for (;;) {
      params.set("after", String(after));
      const page = await (await fetch("/api/log?" + params)).json();
      page.rows.filter(keep).forEach((r) => body.prepend(rowNode(r)));
      loadedTo = Math.max(page.next, loadedTo);
      if (page.next >= page.end || page.rows.length === 0) break;
      after = page.next;
    }
  }

  fetch("/api/rules").then((r) => r.json()).then((data) => {
    for (const r of data.rules) rules[r.id] = r;
  });
  playerSel.addEventListener("change", load);
  illegalBox.addEventListener("change", load);
  load().then(() => TC.connect({ row: (row) => { if (keep(row)) body.prepend(rowNode(row)); } }, loadedTo));
})();
