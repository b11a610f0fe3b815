// Live updates over server-sent events, and safe DOM builders (text only, never innerHTML).
//
// The pages run under a Content-Security-Policy with style-src 'self': Chromium refuses a
// `style` attribute, so nothing here sets one. Looks come from classes in app.css, and sizes
// in drawings from SVG attributes (width, x, y), which the policy allows.
"use strict";
window.TC = window.TC || {};

function tcAppend(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

TC.el = function (tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "style") throw new Error("no style attributes (CSP): use a class");
    else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role") node.setAttribute(key, value);
    else node[key] = value;
  }
  return tcAppend(node, children);
};

TC.SVG_NS = "http://www.w3.org/2000/svg";

// Leave this page once: a started game both answers the console's POST and reaches every open
// stream as a "game" event, and two navigations at once abort the first.
TC.leave = function (href) {
  if (TC.leaving) return;
  TC.leaving = true;
  if (href === undefined) window.location.reload();
  else window.location.href = href;
};

// An SVG element: every attribute set with setAttribute (numbers as text); children as TC.el.
TC.svg = function (tag, attrs, ...children) {
  const node = document.createElementNS(TC.SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "style") throw new Error("no style attributes (CSP): use a class");
    node.setAttribute(key, String(value));
  }
  return tcAppend(node, children);
};

// A table time as the time of day here, to the millisecond (HH:MM:SS.mmm).
TC.clock = function (t) {
  if (t === null || t === undefined) return "—";
  const d = new Date(t * 1000);
  const two = (n) => String(n).padStart(2, "0");
  return two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds()) + "." + String(d.getMilliseconds()).padStart(3, "0");
};

// Who a row is about: the player who acted, else "table" (a card set's clear spells its cards in
// "by"; a sensor's play the engine could not attribute has no player).
TC.actor = function (row) {
  const by = row.move ? row.move.by : null;
  return typeof by === "string" ? by : "table";
};

// A move's value in words, never data: a list's items ("cards 6H, 6S", not ["6H","6S"]), a record's
// parts by name, an empty one as "none". ``names`` (a row's or a preview's) says how a person names a
// card where the engine's name differs: a copy ("start-2") reads as the card ("7 START"), issue 22.
TC.words = function (value, names) {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.length ? value.map((v) => TC.words(v, names)).join(", ") : "none";
  if (typeof value === "object") {
    const parts = Object.entries(value).map(([k, v]) => k + " " + TC.words(v, names));
    return parts.length ? parts.join(", ") : "none";
  }
  const text = String(value);
  return names && Object.prototype.hasOwnProperty.call(names, text) ? names[text] : text;
};

TC.moveText = function (move, names) {
  if (!move) return "";
  const parts = [move.do];
  for (const [key, value] of Object.entries(move)) {
    if (key === "do" || key === "t" || (key === "by" && typeof value === "string")) continue;
    parts.push(key + " " + TC.words(value, names));
  }
  return parts.join(" · ");
};

// A log row's move in words, its cards as people name them.
TC.rowText = function (row) {
  return TC.moveText(row.move, row.names);
};

// Connect to /events. The browser reconnects by itself and sends Last-Event-ID (the last row's
// seq), so the stream resumes from the log after a dropped connection without a reload. If the
// browser gives up (the server answered an error, or was down too long), we open a new stream
// ourselves from the last row we saw.
TC.connect = function (handlers, after) {
  const badge = document.getElementById("live");
  TC.lastSeq = after || 0;
  let source = null;
  let retry = null;
  let downSince = null;
  const setLive = (on) => {
    if (on) downSince = null;
    else if (downSince === null) downSince = Date.now();
    if (badge) {
      badge.textContent = on ? "live" : "reconnecting…";
      badge.className = "live " + (on ? "on" : "off");
    }
    document.body.classList.toggle("offline", !on);
    if (handlers.live) handlers.live(on, downSince);
  };
  const open = () => {
    retry = null;
    source = new EventSource(TC.lastSeq ? "/events?last=" + TC.lastSeq : "/events");
    source.onopen = () => setLive(true);
    source.onerror = () => {
      setLive(false);
      if (source.readyState === EventSource.CLOSED && retry === null) {
        retry = setTimeout(open, 3000);
      }
    };
    source.addEventListener("board", (e) => {
      setLive(true);
      if (handlers.board) handlers.board(JSON.parse(e.data));
    });
    // The table moved on to a new game: this page shows the old one, so it starts again.
    source.addEventListener("game", (e) => {
      source.close();
      if (handlers.game) handlers.game(JSON.parse(e.data));
      else TC.leave();
    });
    source.addEventListener("row", (e) => {
      const row = JSON.parse(e.data);
      TC.lastSeq = row.seq;
      document.body.dataset.seq = String(row.seq);
      if (handlers.row) handlers.row(row);
    });
  };
  setLive(false);
  open();
  return { close: () => { if (retry) clearTimeout(retry); if (source) source.close(); } };
};
