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
    if (p && !(row.move && (TC.actor(row) === p || row.move.target === p || row.move.to === p))) return false;
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

  // A row is a card: the verdict first, then when, who and what; the rule's words one tap away.
  function verdictLine(row) {
    if (row.alert) return el("p", { class: "verdict alert" }, "Unexplained: " + row.alert.what + " — " + row.alert.fix);
    if (row.error) return el("p", { class: "verdict error" }, "Not accepted: " + row.error);
    if (row.note) return el("p", { class: "verdict note" }, row.note.health + ": " + row.note.status);
    const v = row.verdict;
    if (!v) return el("p", { class: "verdict" }, row.kind === "undo" ? "Taken back" : "");
    if (v.ok) return el("p", { class: "verdict legal" }, "Legal");
    return el("div", { class: "verdict illegal" },
      el("p", {}, el("strong", {}, "Illegal "), ...v.rules.map((id) => el("button", { class: "rule", type: "button", onclick: () => showRule(id) }, id))),
      el("p", {}, v.why), v.fix ? el("p", { class: "fix" }, v.fix) : null);
  }

  function rowNode(row) {
    const what = row.kind === "undo" ? "undo: " + TC.rowText(row) : row.kind === "correction" ? "corrected: " + TC.rowText(row) : TC.rowText(row);
    return el("li", { "data-seq": String(row.seq), class: "log-row" + (row.verdict && !row.verdict.ok ? " illegal" : "") },
      verdictLine(row),
      el("p", { class: "meta" }, el("span", { class: "seq" }, "#" + row.seq), " ", el("span", { class: "time" }, TC.clock(row.table_time)),
        " ", el("strong", { class: "who" }, TC.actor(row))),
      what ? el("p", { class: "what" }, what) : null);
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
