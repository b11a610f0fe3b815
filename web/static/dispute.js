// Disputes on the log page: click a row to see the state before and after it, the rule's words,
// and every play within a second of it with its table time to the millisecond.
"use strict";
(function () {
  const el = TC.el;
  const dialog = document.getElementById("dispute");
  const body = document.getElementById("dispute-body");

  const when = TC.clock;

  // The scoreboard's changes in words, its cards as people name them (a copy as the card).
  function changes(before, after, names) {
    const keys = Array.from(new Set(Object.keys(before).concat(Object.keys(after))));
    const rows = keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).map((k) =>
      el("tr", {}, el("th", {}, k), el("td", { class: "before" }, TC.words(before[k], names)), el("td", { class: "after" }, TC.words(after[k], names))));
    if (!rows.length) return el("p", {}, "This row changed nothing on the scoreboard.");
    return el("table", { class: "changes" }, el("tr", {}, el("th", {}, ""), el("th", {}, "before"), el("th", {}, "after")), rows);
  }

  async function open(seq) {
    const response = await fetch("/api/log/" + seq, { credentials: "same-origin" });
    if (!response.ok) return;
    const d = await response.json();
    const row = d.row;
    const v = row.verdict;
    body.replaceChildren(el("div", {},
      el("h3", {}, "Row " + row.seq + " · " + when(row.table_time) + " · " + TC.actor(row)),
      el("p", {}, row.move ? TC.rowText(row) : row.kind),
      v ? el("p", { class: v.ok ? "legal" : "illegal" }, v.ok ? "legal" : "illegal: " + v.why) : null,
      v && v.fix ? el("p", { class: "fix" }, "fix: " + v.fix) : null,
      d.rules.map((r) => el("blockquote", {}, el("strong", {}, r.id + " — " + r.title + " "), el("span", { class: "source" }, "(" + r.source + ")"), el("p", {}, r.passage))),
      d.competing.length ? el("div", {}, el("h4", {}, "Within a second of it"),
        el("table", { class: "competing" }, [row].concat(d.competing).sort((a, b) => a.table_time - b.table_time).map((c) =>
          el("tr", { class: c.seq === row.seq ? "this" : "" }, el("td", { class: "time" }, when(c.table_time)),
            el("td", {}, TC.actor(c)), el("td", {}, TC.rowText(c)),
            el("td", {}, c.verdict ? (c.verdict.ok ? "legal" : c.verdict.rules.join(", ")) : ""))))) : null,
      el("h4", {}, "Scoreboard before → after"), changes(d.before, d.after, d.names),
      d.before_full ? el("details", {}, el("summary", {}, "Full state (referee)"), el("pre", { class: "full" }, JSON.stringify(d.after_full, null, 1))) : null));
    dialog.showModal();
  }

  document.getElementById("rows").addEventListener("click", (e) => {
    if (e.target.closest("button.rule")) return; // the rule button has its own dialog
    const card = e.target.closest("[data-seq]");
    if (card) open(card.dataset.seq);
  });
})();
