// Take-away (the tests' toy game): the counters left and whose turn it is.
"use strict";
(function () {
  const el = TC.el;
  const { stat, section } = TC.games.helpers;

  function board(b) {
    const s = b.scoreboard;
    return el("div", { class: "toy" },
      section("The pile", el("div", { class: "stats" }, stat("left", s.left, s.left <= 3 ? "warn" : "", "left"), stat("turn", s.turn, "", "turn"))));
  }

  function view(v) {
    return section("Your peeks", el("p", { class: "toy-secrets" }, (v.secrets || []).join(", ") || "none"));
  }

  function summary(s) {
    return [["left", s.left], ["turn", s.turn]];
  }

  TC.games.register("toy", { board, view, summary });
})();
