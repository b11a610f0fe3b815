// The scoreboard page (/ and /big): the game's panel on every update, the latest moves, and the
// health of every reader and the camera (a fault is a banner nobody can miss).
"use strict";
(function () {
  const el = TC.el;
  const boardNode = document.getElementById("board");
  const recent = document.getElementById("recent");
  const offline = document.getElementById("offline");
  let offlineTimer = null;

  function renderList(node, items, make) {
    node.replaceChildren(...items.map(make));
    node.hidden = items.length === 0;
  }

  function componentName(name) {
    if (name === "camera") return "Camera";
    if (name === "array") return "Reader link (array)";
    return "Reader " + name;
  }

  function since(h) {
    if (!h.since) return "";
    const when = new Date(h.since * 1000);
    return " since " + when.toTimeString().slice(0, 5);
  }

  const STATUS_WORDS = {
    down: "is DOWN",
    reconnecting: "is reconnecting",
    silent: "has gone silent",
  };

  function healthBanner([name, h]) {
    const status = String(h.status || "unknown");
    const cls = status === "down" ? "bad" : "warn";
    return el("div", { class: "banner " + cls, role: "alert", "data-component": name, "data-status": status },
      el("strong", {}, componentName(name) + " " + (STATUS_WORDS[status] || "reports " + status)),
      h.detail ? el("span", { class: "detail" }, " — " + h.detail) : null,
      el("span", { class: "detail" }, since(h)),
      el("span", { class: "hint" }, status === "down"
        ? " Moves it should see are not being read: check its cable and power, or enter them on the referee console."
        : " Moves may arrive late; the companion keeps trying."));
  }

  function healthChip([name, h]) {
    const status = String(h.status || "unknown");
    const counts = ["bad_frames", "gaps", "duplicates", "unknown_tags", "reconnects"]
      .filter((k) => h[k]).map((k) => k.replace("_", " ") + " " + h[k]).join(", ");
    return el("span", { class: "reader " + (status === "ok" ? "ok" : status === "down" ? "bad" : "warn"), "data-component": name,
      title: (h.detail || "") + (counts ? " (" + counts + ")" : "") },
      name + ": " + status + (counts ? " · " + counts : ""));
  }

  function renderBoard(board) {
    // Keep open folds (round history, leaders…) open across re-renders.
    const open = new Set([...boardNode.querySelectorAll("details[open][data-key]")].map((d) => d.dataset.key));
    const panel = TC.games.render(board);
    panel.querySelectorAll("details[data-key]").forEach((d) => { if (open.has(d.dataset.key)) d.open = true; });
    boardNode.replaceChildren(panel);
    markFlash();
  }

  // The big screen flashes the zone or the player a ruling names (issue 25): a refusal red, an alert
  // amber, for a few seconds, on the panel's own element for it (a pile, a player's row) and in a
  // banner that says where and why. It reads only the public row, as every page does.
  const FLASH_MS = 4000;
  const flash = { place: null, look: "", until: 0, timer: null };
  const bigScreen = document.body.classList.contains("big");

  function rulingPlace(row) {
    if (row.alert && row.alert.zone) return { zone: row.alert.zone, label: row.alert.zone };
    const m = row.move || {};
    if (Number.isInteger(m.pile)) return { zone: "pile-" + m.pile, pile: m.pile, label: "Pile " + m.pile };
    if (Number.isInteger(m.slot)) return { zone: "slot-" + m.slot, label: "Slot " + m.slot };
    if (typeof m.by === "string") return { player: m.by, label: m.by };
    return null;
  }

  function flashed(place) {
    const css = (v) => String(v).replace(/["\\]/g, "\\$&");
    const sel = [];
    if (place.zone) sel.push('[data-zone="' + css(place.zone) + '"]');
    if (place.pile !== undefined) sel.push('[data-pile="' + css(place.pile) + '"]');
    if (place.player) sel.push('[data-player="' + css(place.player) + '"]');
    return sel.length ? [...boardNode.querySelectorAll(sel.join(","))] : [];
  }

  function markFlash() {
    boardNode.querySelectorAll(".flash-illegal, .flash-alert").forEach((n) => n.classList.remove("flash-illegal", "flash-alert"));
    if (!flash.place || Date.now() > flash.until) return;
    flashed(flash.place).forEach((n) => n.classList.add("flash-" + flash.look));
  }

  function flashRuling(row) {
    const v = row.verdict;
    const look = row.alert ? "alert" : v && v.ok === false && !row.error ? "illegal" : null;
    if (!look) return;
    const place = rulingPlace(row);
    const banner = document.getElementById("ruling");
    if (!place || !banner) return;
    Object.assign(flash, { place, look, until: Date.now() + FLASH_MS });
    banner.className = "ruling banner flash-" + look;
    banner.dataset.zone = place.zone || "";
    banner.dataset.player = place.player || "";
    banner.replaceChildren(el("strong", {}, place.label + ": "), row.alert ? row.alert.what : v.why);
    banner.hidden = false;
    markFlash();
    if (flash.timer) clearTimeout(flash.timer);
    flash.timer = setTimeout(() => { flash.place = null; banner.hidden = true; markFlash(); }, FLASH_MS);
  }

  function takenBack(row) {
    // An undo or a correction: the ruling on the screen is no longer the table's.
    if ((row.kind === "undo" || row.kind === "correction") && !row.error && flash.place) {
      flash.until = 0;
      const banner = document.getElementById("ruling");
      if (banner) banner.hidden = true;
      markFlash();
    }
  }

  // "Save to BG Stats": the app's createPlay link for the finished game (web/bgstats.py), asked for
  // once per board seq and drawn again at every render; the app opens on the phone and asks before saving.
  const bgStats = { seq: null, link: null };
  function bgStatsLink(link) {
    return el("p", {}, el("a", { class: "bgstats", href: link, rel: "noopener" }, "Save to BG Stats"));
  }
  function saveToBgStats(outcome, seq) {
    if (bgStats.seq === seq) {
      if (bgStats.link) outcome.append(bgStatsLink(bgStats.link));
      return;
    }
    bgStats.seq = seq;
    bgStats.link = null;
    fetch("/api/bgstats").then((r) => (r.ok ? r.json() : null)).then((answer) => {
      if (!answer || bgStats.seq !== seq) return;
      bgStats.link = answer.link;
      outcome.append(bgStatsLink(answer.link));
    }).catch(() => { bgStats.seq = null; });
  }

  function render(board) {
    document.body.dataset.boardSeq = String(board.seq);
    renderList(document.getElementById("alerts"), board.alerts, (a) =>
      el("div", { class: "alert banner bad" }, el("strong", {}, a.zone + ": "), a.what, " — ", el("em", {}, a.fix)));
    renderList(document.getElementById("prompts"), board.prompts, (p) =>
      el("div", { class: "prompt" }, p.who ? el("strong", {}, p.who + ": ") : null, p.who ? p.text.replace(new RegExp("^" + p.who.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + ": "), "") : p.text));
    const outcome = document.getElementById("outcome");
    outcome.hidden = !board.outcome;
    if (board.outcome) {
      // Coloured by outcome: won (a winner, or the table escaped), lost (nobody won), or just ended.
      const o = board.outcome;
      const look = o.won === false || (o.won === undefined && o.winner === null) ? "lost" : o.won === true || o.winner ? "won" : "ended";
      outcome.className = "outcome " + look;
      outcome.replaceChildren(el("h2", {}, "Game over"), TC.games.outcomeText(board));
      saveToBgStats(outcome, board.seq);
    }
    renderBoard(board);
    const health = Object.entries(board.health || {}).sort(([a], [b]) => a.localeCompare(b));
    renderList(document.getElementById("health-banner"), health.filter(([, h]) => h.status !== "ok"), healthBanner);
    const chips = document.getElementById("health");
    if (health.length) chips.replaceChildren(...health.map(healthChip));
    else chips.replaceChildren(el("span", { class: "muted" }, "No readers or camera have reported (moves are entered by hand)."));
    // Zones the camera cannot see right now (a hand, glare, too dark): their last settled view stands.
    const camera = (board.health || {}).camera || {};
    const unseen = Array.isArray(camera.unseen) ? camera.unseen : [];
    const unseenNode = document.getElementById("unseen");
    unseenNode.hidden = !unseen.length;
    unseenNode.textContent = unseen.length ? "Camera cannot see: " + unseen.map((u) => u.zone + " (" + u.reason + ")").join(", ") : "";
    const c = board.counters || {};
    document.getElementById("counters").textContent =
      (c.observations || 0) + " observations · " + (c.illegal || 0) + " illegal · " + (c.alerts || 0) + " alerts · " + (c.errors || 0) + " errors";
    renderChain(board.chain);
  }

  // The log's head, for players to keep (`companion log verify LOG --head ...`), and a log carried on from a broken one.
  function renderChain(chain) {
    const node = document.getElementById("chain");
    if (!node || !chain) return;
    const link = chain.continues;
    node.replaceChildren(
      el("span", {}, "Log: " + chain.rows + " rows · head ", el("code", {}, chain.head), chain.kind === "sha256" ? " (unkeyed)" : ""),
      link ? el("p", { class: "banner warn chain-continues" }, "This log carries on from " + link.file + ", which was broken after row "
        + link.seq + " (head " + link.hash.slice(0, 12).replace(/(.{4})(?=.)/g, "$1 ") + ").") : "");
  }

  function rowNode(row) {
    const v = row.verdict;
    const cls = row.alert ? "alert" : row.error ? "error" : row.note ? "note" : v && !v.ok ? "illegal" : "legal";
    const who = row.move && row.move.by ? row.move.by + " " : "";
    const text = row.alert ? row.alert.zone + ": " + row.alert.what
      : row.error ? row.error
      : row.note ? componentName(row.note.health) + ": " + row.note.status
      : (row.kind === "undo" ? "undo: " : row.kind === "correction" ? "corrected: " : "") + who + TC.rowText(row)
        + (v && !v.ok ? " — " + v.rules.join(", ") + ": " + v.why : "");
    return el("li", { class: cls, "data-seq": String(row.seq), value: row.seq }, text);
  }

  const shown = (row) => Boolean(row.move || row.alert || row.error || row.note);

  function addRow(row) {
    if (bigScreen) { flashRuling(row); takenBack(row); }
    if (!shown(row) || recent.querySelector('li[data-seq="' + row.seq + '"]')) return;
    recent.prepend(rowNode(row));
    while (recent.children.length > 12) recent.lastChild.remove();
  }

  // The stream starts with the board, not the past: fill "Latest" with the rows just before it.
  let backfilled = false;
  async function backfill(upto) {
    backfilled = true;
    const response = await fetch("/api/log?after=" + Math.max(0, upto - 40) + "&limit=40");
    if (!response.ok) return;
    const page = await response.json();
    const older = page.rows.filter((r) => r.seq <= upto && shown(r)).reverse();
    for (const row of older) {
      if (recent.children.length >= 12) break;
      if (!recent.querySelector('li[data-seq="' + row.seq + '"]')) recent.append(rowNode(row));
    }
  }

  function live(on) {
    if (on) {
      if (offlineTimer) clearTimeout(offlineTimer);
      offlineTimer = null;
      offline.hidden = true;
    } else if (offlineTimer === null && offline.hidden) {
      // A blip (a phone waking up) is not worth a banner; a few seconds without the stream is.
      offlineTimer = setTimeout(() => { offlineTimer = null; if (document.body.classList.contains("offline")) offline.hidden = false; }, 4000);
    }
  }

  function onBoard(board) {
    render(board);
    if (!backfilled) backfill(board.seq).catch((err) => console.error("could not read the log", err));
  }

  TC.connect({ board: onBoard, row: addRow, live });
})();
