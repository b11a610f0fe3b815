// Sending a person's entry: JSON with the page's CSRF token; the answer shown in plain words.
"use strict";
window.TC = window.TC || {};

TC.csrf = function () {
  const meta = document.querySelector('meta[name="csrf"]');
  return meta ? meta.content : "";
};

TC.post = async function (url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": TC.csrf() },
    body: JSON.stringify(body || {}),
    credentials: "same-origin",
  });
  const text = await response.text();
  let data = null;
  try { data = JSON.parse(text); } catch (err) { data = null; }
  return { status: response.status, data, text };
};

TC.describeAnswer = function (answer) {
  if (answer.data && answer.data.row) {
    const row = answer.data.row;
    if (row.error) return { cls: "error", text: "Not accepted: " + row.error };
    if (row.verdict && !row.verdict.ok) return { cls: "illegal", text: "Illegal (" + row.verdict.rules.join(", ") + "): " + row.verdict.why + (row.verdict.fix ? " — " + row.verdict.fix : "") };
    return { cls: "legal", text: "Recorded as row " + row.seq + "." };
  }
  return { cls: "error", text: answer.text.trim() || "HTTP " + answer.status };
};

// The answer stays in view (issue 22): below the screen it rides its bottom (app.css, sticky); above
// it (the page scrolled down a long picker that the answered move then closed) it is scrolled to,
// now and once more when the builder has drawn its next offer (TC.answerInView).
TC.showAnswer = function (node, answer) {
  const d = TC.describeAnswer(answer);
  node.className = "answer " + d.cls;
  node.textContent = d.text;
  TC.answerShown = node;
  TC.answerInView();
};

TC.answerInView = function () {
  const node = TC.answerShown;
  if (node && node.isConnected && node.getBoundingClientRect().top < 0) node.scrollIntoView({ block: "nearest" });
};
