// The venue page: every table at a glance, one table's board and events, and the standings.
// Only what the tables published; safe DOM builders only (TC.el, never innerHTML), CSP-safe.
"use strict";
(function () {
  const el = TC.el;
  const body = document.body;
  const page = body.dataset.page;

  // Each game's headline figures, read by its own panel (its ``summary``) from its public scoreboard as
  // the table published it. Nothing is computed here: the venue runs no rules.
  function headline(board) {
    const figures = TC.games.summary(board);
    if (figures) {
      return el("dl", { class: "headline", "data-game": board.game },
        figures.map(([label, value]) => [el("dt", {}, label), el("dd", {}, value === undefined || value === null ? "—" : String(value))]));
    }
    // Any other game: the first figures its own scoreboard panel draws.
    const stats = [...TC.games.render(board).querySelectorAll(".stat")].slice(0, 3);
    return stats.length ? el("div", { class: "stats headline" }, stats) : el("div", { class: "headline muted" }, "—");
  }

  function state(board) {
    if (board.outcome) return el("span", { class: "tag state over" }, "game over: " + (board.winners && board.winners.length ? board.winners.join(", ") + " won" : "nobody won"));
    const p = (board.prompts || [])[0];
    return el("span", { class: "tag state on" }, p ? p.text : "playing");
  }

  function eventText(row) {
    if (!row) return "no event yet";
    const v = row.verdict;
    const who = row.move && row.move.by ? row.move.by + " " : "";
    if (row.alert) return row.alert.zone + ": " + row.alert.what;
    if (row.error) return row.error;
    if (row.note) return String(row.note.health) + ": " + row.note.status;
    if (!row.move) return row.kind;
    return who + TC.rowText(row) + (v && !v.ok ? " — refused (" + (v.rules || []).join(", ") + ")" : "");
  }

  function tile(t) {
    const b = t.board;
    const behind = b.seq > t.stored ? el("span", { class: "tag warn behind" }, "catching up: " + t.stored + " of " + b.seq) : null;
    return el("li", { class: "table-tile" + (b.outcome ? " over" : ""), "data-table": t.table, "data-seq": String(t.stored) },
      el("a", { class: "tile-link", href: "/table/" + encodeURIComponent(t.table) },
        el("h3", {}, el("span", { class: "table-name" }, t.table), " · ", el("span", { class: "game-name" }, b.title || b.game)),
        el("p", { class: "players" }, (b.players || []).join(", ")),
        headline(b),
        el("p", {}, state(b), behind),
        el("p", { class: "last-event" }, el("span", { class: "muted" }, "#" + t.stored + " "), eventText(t.last_event))));
  }

  // Every table the page knows, by name; a live refresh fetches only the tables that changed.
  const known = new Map();
  function renderVenue(data) {
    if (!data.partial) known.clear();
    for (const t of data.tables) known.set(t.table, t);
    const list = document.getElementById("tables");
    const all = [...known.values()].sort((a, b) => a.table.localeCompare(b.table));
    if (!all.length) list.replaceChildren(el("li", { class: "muted" }, "No table has published yet."));
    else if (!data.partial || list.querySelectorAll("li.table-tile").length !== all.length) list.replaceChildren(...all.map(tile));
    else {
      for (const t of data.tables) {
        const old = list.querySelector('li.table-tile[data-table="' + CSS.escape(t.table) + '"]');
        if (old) old.replaceWith(tile(t));
      }
    }
    const s = data.standings;
    document.querySelector("#wins tbody").replaceChildren(...s.players.map((p) =>
      el("tr", { "data-player": p.player }, el("td", {}, p.player), el("td", { class: "won" }, String(p.won)),
        el("td", {}, String(p.played)), el("td", {}, p.tables.join(", ")))));
    document.getElementById("finished").replaceChildren(...s.games.map((g) =>
      el("li", { "data-table": g.table }, el("strong", {}, g.table), " · " + (g.title || g.game) + " · " + g.players.join(", ") + " — ",
        g.winners.length ? el("span", { class: "winners" }, g.winners.join(", ") + " won") : "nobody won")));
    const st = data.status || {};
    document.getElementById("venue-status").textContent = (st.broker ? "broker " + st.broker + " · " : "")
      + (st.store ? st.store.stored + " events stored · " + st.store.duplicates + " duplicates dropped" : "")
      + (st.collector ? " · " + st.collector.asked + " replays asked · " + st.collector.bad + " bad messages" : "");
    body.dataset.version = String(data.version || "");
    body.dataset.tables = String(all.length);
  }

  function rowNode(row) {
    const v = row.verdict;
    const cls = row.alert ? "alert" : row.error ? "error" : row.note ? "note" : v && !v.ok ? "illegal" : "legal";
    return el("li", { class: cls, "data-seq": String(row.seq), value: row.seq }, eventText(row));
  }

  let instance = null;
  let lastSeq = 0;
  function renderTable(data) {
    const s = data.summary;
    if (instance !== null && data.instance !== instance) {
      // the table moved on to a new game: start its list again
      lastSeq = 0;
      document.getElementById("events").replaceChildren();
      instance = data.instance;
      again = true;
      return;
    }
    instance = data.instance;
    if (s) {
      const b = s.board;
      document.getElementById("table-head").replaceChildren(
        el("h2", {}, b.title || b.game), el("p", { class: "players" }, (b.players || []).join(", ")),
        el("p", {}, state(b), b.seq > s.stored ? el("span", { class: "tag warn behind" }, "catching up: " + s.stored + " of " + b.seq) : null));
      const outcome = document.getElementById("outcome");
      outcome.hidden = !b.outcome;
      if (b.outcome) outcome.replaceChildren(el("h2", {}, "Game over"), TC.games.outcomeText(b));
      document.getElementById("board").replaceChildren(TC.games.render(b));
    }
    const list = document.getElementById("events");
    for (const row of data.events) {
      if (row.seq <= lastSeq) continue;
      list.prepend(rowNode(row));
      lastSeq = row.seq;
    }
    body.dataset.seq = String(lastSeq);
  }

  let busy = false;
  let again = false;
  let wantAll = true; // the stream's first message, or a reconnect: every table
  const pending = new Set(); // the tables changed since the last fetch
  const PAGE = 100; // tables in one /api/tables answer (web/venue.py TABLES_PAGE)
  let nextPage = null; // a full refresh goes on after this table, a page at a time
  function tablesUrl() {
    if (nextPage !== null) return "/api/tables?after=" + encodeURIComponent(nextPage);
    const all = wantAll || !known.size || pending.size > PAGE;
    const only = [...pending];
    pending.clear();
    wantAll = false;
    return "/api/tables" + (all ? "" : "?only=" + only.map(encodeURIComponent).join(","));
  }
  async function refresh(changed) {
    if (changed === null) wantAll = true;
    else if (changed) changed.forEach((t) => pending.add(t));
    if (busy) { again = true; return; }
    busy = true;
    try {
      do {
        again = false;
        const url = page === "table" ? "/api/table/" + encodeURIComponent(body.dataset.table) + (lastSeq ? "?after=" + lastSeq : "")
          : tablesUrl();
        const response = await fetch(url);
        if (!response.ok) { nextPage = null; continue; }
        const data = await response.json();
        if (page === "table") {
          renderTable(data);
          if (data.events.length >= 200) again = true; // a page of events: fetch the rest
        } else {
          renderVenue(data);
          nextPage = data.next || null;
          if (nextPage !== null) again = true; // more tables: the next page
        }
      } while (again);
    } finally {
      busy = false;
    }
  }

  function connect() {
    const badge = document.getElementById("live");
    const source = new EventSource("/events");
    const setLive = (on) => { badge.textContent = on ? "live" : "reconnecting…"; badge.className = "live " + (on ? "on" : "off"); };
    source.onopen = () => setLive(true);
    source.onerror = () => setLive(false);
    source.addEventListener("changed", (e) => {
      setLive(true);
      const data = JSON.parse(e.data);
      body.dataset.streamVersion = String(data.version);
      const tables = Object.keys(data.tables || {}).map((k) => k.slice(k.indexOf("/") + 1));
      if (page === "table") {
        if (tables.length && !tables.includes(body.dataset.table)) return;
        refresh();
      } else refresh(tables.length ? tables : null); // the stream's first message (or a reconnect): everything
    });
  }

  connect();
})();
