"""Write every game's rule cases: ``companion/games/<pkg>/rule_cases.jsonl``.

Run from the repository root (a few minutes a game; Escape Master takes longest)::

    .venv/bin/python -m tests.rulecases.generate                  # every game
    .venv/bin/python -m tests.rulecases.generate everest          # one game (or several)
    .venv/bin/python -m tests.rulecases.generate --seeds 8 --moves 400 --hunt 100

The same arguments write the same files: every playout is seeded. For every rule id of the game's
RuleBook it walks the acceptance games and ``--seeds`` playouts per setting (:mod:`.sources`) and,
at every state, tries the moves a slip away from the one played (:mod:`.mutate`). It keeps the
earliest state where a move is refused citing the rule and writes that move (``"expect":
"illegal"``) and the nearest move of the same verb the engine accepts there (``"legal"``; where
none is, the accepted move of that verb nearest to it in the same playout). A rule marked
``refuses=False`` gets instead the first move after which its effect shows on the scoreboard or the
outcome (``"effect"``, recognised by :mod:`.effects`; ``--hunt`` more playouts per setting are
walked for these alone) and a move of the same verb showing it in another playout (``"legal"``).
Each lead-up is then cut down (:mod:`.shrink`), and every case is checked against the engine
before it is written.

Lines marked ``"made": "by hand"`` are kept as they are, and the search writes nothing for a
(rule, expect) pair a hand-written line covers: a case the search cannot find, or finds badly, is
written by hand and stays. The run ends by listing what is still missing (exit status 1).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

from companion.contract.game import Game
from companion.core import Header, Move
from companion.games import game_ids, get_game
from .cases import EXPECTS, case_json, cases_file, check_case, read_case
from .effects import EFFECTS
from .mutate import Domains
from .search import EffectFinder, Found, Search, Step, run_sources
from .shrink import shrink
from .sources import hunts, sources

logger = logging.getLogger(__name__)

Case = dict[str, Any]


def _small_header(game: Game[Any], header: Header) -> Header:
    """The header without the options that only restate their defaults."""
    defaults = game.default_options()
    options = {k: v for k, v in header.options.items() if defaults.get(k, object()) != v}
    return dataclasses.replace(header, options=options)


def _without_times(moves: Sequence[Move]) -> list[Move]:
    return [m.replace(t=None) for m in moves]


def _replayed(game: Game[Any], header: Header, moves: Sequence[Move]) -> Any:
    """The state after ``moves`` (None if one of them is refused)."""
    state = game.new_state(header)
    for move in moves:
        verdict, state = game.play(state, move)
        if not verdict.ok:
            return None
    return state


def _refused_by(game: Game[Any], rule: str, bad: Move) -> Callable[[Any], bool]:
    def holds(state: Any) -> bool:
        verdict, after = game.play(state, bad)
        return not verdict.ok and rule in verdict.rules and after is state

    return holds


def _accepts(game: Game[Any], move: Move) -> Callable[[Any], bool]:
    return lambda state: game.judge(state, move).ok


def _shows(game: Game[Any], finder: EffectFinder, move: Move) -> Callable[[Any], bool]:
    def holds(state: Any) -> bool:
        return game.judge(state, move).ok and finder(Step(game, state, move, game.apply(state, move))) is not None

    return holds


def _cut(game: Game[Any], header: Header, lead: list[Move], moves: list[Move],
         holds: Callable[[list[Move]], Callable[[Any], bool]]) -> tuple[list[Move], list[Move]]:
    """The lead-up shrunk, then every time stamp dropped where the case holds without them."""
    lead = shrink(game, header, lead, holds(moves))
    bare_lead, bare = _without_times(lead), _without_times(moves)
    state = _replayed(game, header, bare_lead)
    if state is None or not holds(bare)(state):  # the case turns on the time stamps (who was first at a pile)
        return lead, moves
    return bare_lead, bare


def _diff_note(game: Game[Any], bad: Move, good: Move) -> str:
    a, b = game.codec.to_json(bad), game.codec.to_json(good)
    parts = []
    for key in [k for k in b if k not in ("do", "t")] + [k for k in a if k not in b and k not in ("do", "t")]:
        if a.get(key) != b.get(key):
            parts.append(f"{key} {json.dumps(b.get(key))}, not {json.dumps(a.get(key))}")
    return "accepted with " + "; ".join(parts) if parts else "accepted"


def _refusal_cases(game: Game[Any], rule: str, found: Found) -> list[Case]:
    assert found.bad is not None and found.good is not None
    header = _small_header(game, found.header)
    out: list[Case] = []
    if found.good_lead is None:  # the twins share their lead-up: cut it for both at once
        def both(ms: list[Move]) -> Callable[[Any], bool]:
            return lambda s: _refused_by(game, rule, ms[0])(s) and _accepts(game, ms[1])(s)

        lead, (bad, good) = _cut(game, header, found.lead, [found.bad, found.good], both)
        good_header, good_lead = header, lead
        good_note = _diff_note(game, bad, good)
    else:
        lead, (bad,) = _cut(game, header, found.lead, [found.bad], lambda ms: _refused_by(game, rule, ms[0]))
        good_header = _small_header(game, found.good_header or found.header)
        # Not cut: what keeps the rule at stake for an accepted move is not something to test for,
        # so the lead-up stays the playout's own, up to the accepted move nearest the refusal.
        good_lead, good = found.good_lead, found.good
        bare = _replayed(game, good_header, _without_times(good_lead))
        if bare is not None and game.judge(bare, good.replace(t=None)).ok:
            good_lead, good = _without_times(good_lead), good.replace(t=None)
        good_note = f"{good.verb} accepted; {game.rules[rule].title}"
    why = game.judge(_replayed(game, header, lead), bad).why
    out.append(case_json(game, rule, "illegal", header, lead, bad, why, "generated"))
    out.append(case_json(game, rule, "legal", good_header, good_lead, good, good_note, "generated"))
    return out


CUT_FIRST = 3
"""Effect instances of each verb cut down before the shortest are chosen (a long one may end shortest)."""

Cut = tuple[Header, list[Move], Move]


def _cut_size(cut: Cut) -> tuple[int, int]:
    return len(cut[1]), len(json.dumps(cut[0].to_json()))


def _effect_cases(game: Game[Any], rule: str, finder: EffectFinder, found: list[Found], wanted: set[str],
                  verbs: set[str]) -> list[Case]:
    """The shortest instance as the effect case and the shortest of the same verb from another
    playout as the legal case (of the verb whose pair is shortest). ``verbs``: those of the rule's
    cases written by hand, which the effect case must share."""
    title = game.rules[rule].title
    by_verb: dict[str, list[Cut]] = {}
    for instance in found:
        assert instance.good is not None
        if verbs and instance.good.verb not in verbs:
            continue
        kept = by_verb.setdefault(instance.good.verb, [])
        if len(kept) < CUT_FIRST:
            header = _small_header(game, instance.header)
            lead, (move,) = _cut(game, header, instance.lead, [instance.good], lambda ms: _shows(game, finder, ms[0]))
            kept.append((header, lead, move))
    for kept in by_verb.values():
        kept.sort(key=_cut_size)
    pairs = sorted((kept for kept in by_verb.values() if len(kept) > 1), key=lambda k: _cut_size(k[0]))
    singles = sorted(by_verb.values(), key=lambda k: _cut_size(k[0]))
    if "legal" not in wanted:  # written by hand: the shortest effect is all that is wanted
        pairs = []
    chosen = pairs[0] if pairs else singles[0] if singles else []
    out: list[Case] = []
    if chosen and "effect" in wanted:
        header, lead, move = chosen[0]
        state = _replayed(game, header, lead)
        then = finder(Step(game, state, move, game.apply(state, move)))
        note = f"{title}, after {move.verb}"
        out.append(case_json(game, rule, "effect", header, lead, move, note, "generated", then))
    if len(chosen) > 1 and "legal" in wanted:
        header, lead, move = chosen[1]
        out.append(case_json(game, rule, "legal", header, lead, move, f"{move.verb} accepted; {title}", "generated"))
    return out


def _existing(path: Any) -> list[Case]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def generate(game_id: str, seeds: int, moves: int, hunt: int) -> list[str]:
    """Write the game's rule-case file; return what is still missing."""
    game = get_game(game_id)
    path = cases_file(game_id)
    by_hand = [c for c in _existing(path) if c.get("made") == "by hand"]
    covered = {(c["rule"], c["expect"]) for c in by_hand}
    played = list(sources(game_id, seeds, moves))
    domains = Domains()
    for _, _, ms in played:
        domains.learn(game, ms)
    effects = EFFECTS.get(game_id, {})
    search = Search(game, domains, effects)
    run_sources(search, played, hunts(game_id, seeds, hunt, moves))
    cases: list[Case] = []
    missing: list[str] = []
    for rule_id, rule in game.rules.items():
        wanted = {e for e in EXPECTS if (rule_id, e) not in covered}
        if rule.refuses:
            found = search.refused.get(rule_id)
            if found is not None and wanted & {"illegal", "legal"}:
                cases += [c for c in _refusal_cases(game, rule_id, found) if c["expect"] in wanted]
            continue
        if rule_id in search.refused or rule_id in search.unpaired:
            missing.append(f"{rule_id}: marked refuses=False, yet a move was refused citing it")
        finder = effects.get(rule_id)
        if finder is not None and wanted & {"effect", "legal"}:
            verbs = {c["move"]["do"] for c in by_hand if c["rule"] == rule_id}
            cases += _effect_cases(game, rule_id, finder, search.effect_cases(rule_id), wanted, verbs)
    have = covered | {(c["rule"], c["expect"]) for c in cases}
    for rule_id, rule in game.rules.items():
        need = ("illegal", "legal") if rule.refuses else ("effect", "legal")
        missing += [f"{rule_id}: no {e} case" for e in need if (rule_id, e) not in have]
    for number, case in enumerate(cases, start=1):
        problem = check_case(game, read_case(game, number, case))
        if problem:
            raise AssertionError(f"{game_id}: a generated case does not hold ({problem}): {case}")
    order = {r: i for i, r in enumerate(game.rules)}
    shown_first = ("illegal", "effect", "legal")
    every = sorted(by_hand + cases, key=lambda c: (order.get(c["rule"], len(order)), shown_first.index(c["expect"]),
                                                   c["made"] != "generated"))
    path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in every), encoding="utf-8")
    logger.info("%s: %d cases (%d by hand) written to %s", game_id, len(every), len(by_hand), path)
    return missing


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.rulecases.generate", description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help=f"game ids (default: all of {', '.join(game_ids())})")
    parser.add_argument("--seeds", type=int, default=8, help="playouts per setting (default 8)")
    parser.add_argument("--moves", type=int, default=400, help="moves per playout at most (default 400)")
    parser.add_argument("--hunt", type=int, default=100,
                        help="more playouts per setting walked for the effects alone (default 100)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    still = []
    for game_id in args.games or list(game_ids()):
        still += [f"{game_id} {m}" for m in generate(game_id, args.seeds, args.moves, args.hunt)]
    for line in still:
        print("missing:", line)
    return 1 if still else 0


if __name__ == "__main__":
    sys.exit(main())
