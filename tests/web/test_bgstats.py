"""A finished game as a BG Stats play: the page's link over HTTP and `companion log export --format
bgstats`, each game's first acceptance file played into a real log on disk (issue 22)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.contract.spec import GameSpec
from companion.core import Header, Move
from companion.games import specs
from companion.log.notation import read_notation
from companion.log.store import GameLog
from companion.log.bgstats import CREATE_PLAY, SOURCE_NAME
from tests.conftest import move
from tests.serving import served_game

GAMES = [spec for spec in specs().values() if spec.acceptance_files()]


def _export(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "log", "export", str(path), "--format", "bgstats"],
                          capture_output=True, text=True, timeout=120)


def _ending(spec: GameSpec, header: Header, moves: list[Move]) -> int:
    """The index of the move that ends the game."""
    state = spec.game.new_state(header)
    for k, played in enumerate(moves):
        verdict, state = spec.game.play(state, played)
        if spec.game.outcome(state) is not None:
            return k
    raise AssertionError(f"{spec.id}: the file does not end its game")


@pytest.mark.parametrize("spec", GAMES, ids=lambda s: s.id)
def test_a_finished_game_is_one_bg_stats_play_on_the_page_and_in_the_export(spec: GameSpec, tmp_path: Path) -> None:
    with spec.acceptance_files()[0].open(encoding="utf-8") as handle:
        record = read_notation(handle)
    game, header = spec.game, record.header
    path = tmp_path / "game.sqlite"
    moves = [played for _, played in record.moves]
    ending = _ending(spec, record.header, moves)
    with served_game(path, game, header) as served:
        for played in moves[:ending]:
            served.session.process(move(dict(game.codec.to_json(played)), t=played.t or 100.0))
        status, _, body = served.get("/api/bgstats")
        assert status == 409 and b"not over" in body  # not a play until it is over
        for played in moves[ending:]:  # the move that ends it (and any attempt after, refused)
            served.session.process(move(dict(game.codec.to_json(played)), t=played.t or 100.0))
        answer = served.get_json("/api/bgstats")
        assert isinstance(answer, dict)
        outcome = game.outcome(served.session.state)
        points = game.points(served.session.state)
    assert outcome is not None
    play = answer["play"]

    # The link is BG Stats' createPlay with the play as its one parameter.
    link = urlsplit(answer["link"])
    assert f"{link.scheme}://{link.netloc}{link.path}" == CREATE_PLAY
    assert json.loads(parse_qs(link.query)["data"][0]) == play

    with GameLog(path) as game_log:
        first = game_log.row(1)
        assert first is not None
        assert play["sourcePlayId"] == first.hash
    assert play["sourceName"] == SOURCE_NAME
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"]) and play["durationMin"] >= 1
    assert play["game"]["name"] == game.title and play["game"]["sourceGameId"] == game.id
    assert play["game"]["noPoints"] is (points is None)
    assert [p["name"] for p in play["players"]] == list(header.players)
    assert {p["name"] for p in play["players"] if p["winner"]} == set(outcome.winners)
    starter = next(m.by for m in moves if m.by is not None)
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == [starter]
    ranks = {p["name"]: p["rank"] for p in play["players"]}
    assert all(ranks[w] == 1 for w in outcome.winners)
    if points is None:
        assert all("score" not in p for p in play["players"])
    else:
        assert {p["name"]: p["score"] for p in play["players"]} == dict(points.by_player)
        assert play["game"]["highestWins"] is points.highest_wins
        better = (lambda a, b: a > b) if points.highest_wins else (lambda a, b: a < b)
        losers = [p for p in header.players if p not in outcome.winners]
        for a in losers:  # among the others, more (or fewer) points rank higher
            for b in losers:
                if better(points.by_player[a], points.by_player[b]):
                    assert ranks[a] < ranks[b], (a, b, ranks)

    said = outcome.to_json()
    if "score" in said:  # a game whose outcome states the score (a solitaire's): the same number
        assert [p["score"] for p in play["players"]] == [said["score"]]

    exported = _export(path)
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout) == play


def test_export_refuses_a_game_that_is_not_over(tmp_path: Path) -> None:
    spec = next(iter(GAMES))
    with spec.acceptance_files()[0].open(encoding="utf-8") as handle:
        record = read_notation(handle)
    db = tmp_path / "open.sqlite"
    with served_game(db, spec.game, record.header) as served:
        _, first = record.moves[0]
        served.session.process(move(dict(spec.game.codec.to_json(first)), t=first.t or 100.0))
    result = _export(db)
    assert result.returncode == 1 and "the game is not over" in result.stderr and "Traceback" not in result.stderr
