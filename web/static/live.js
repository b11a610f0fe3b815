// Live updates over server-sent events, and a safe DOM builder (text only, never innerHTML).
"use strict";
window.TC = window.TC || {};

TC.el = function (tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "style") node.setAttribute("style", value);
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
};

TC.moveText = function (move) {
  if (!move) return "";
  const parts = [move.do];
  for (const [key, value] of Object.entries(move)) {
    if (key === "do" || key === "by" || key === "t") continue;
    parts.push(key + " " + (typeof value === "object" ? JSON.stringify(value) : value));
  }
  return parts.join(" · ");
};

// Connect to /events; the browser reconnects by itself and sends Last-Event-ID, so the stream
// resumes from the log after a dropped connection without a reload.
TC.connect = function (handlers, after) {
  const badge = document.getElementById("live");
  const source = new EventSource(after ? "/events?last=" + after : "/events");
  TC.lastSeq = 0;
  const setLive = (on) => {
    if (!badge) return;
    badge.textContent = on ? "live" : "reconnecting…";
    badge.className = "live " + (on ? "on" : "off");
  };
  source.onopen = () => setLive(true);
  source.onerror = () => setLive(false);
  source.addEventListener("board", (e) => handlers.board && handlers.board(JSON.parse(e.data)));
  source.addEventListener("row", (e) => {
    const row = JSON.parse(e.data);
    TC.lastSeq = row.seq;
    document.body.dataset.seq = String(row.seq);
    handlers.row && handlers.row(row);
  });
  return source;
};
