"""``companion camera deck``: teach the camera the table's own deck from 13 cards laid under it
(vision/deck_layout.py, vision/deck_teach.py), and ``--check`` read a laid set back with what was
taught, saying which cards it misreads."""

from __future__ import annotations

import argparse
import logging
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.core.errors import ConfigError

if TYPE_CHECKING:  # OpenCV is loaded only when the command runs
    from vision.deck_layout import DeckLayout
    from vision.frame import Frame, Image
    from vision.settings import VisionSettings

log = logging.getLogger(__name__)


def add_parser(csub: Any, source_args: Any) -> None:
    d = csub.add_parser("deck", help="teach the camera your deck from 13 cards laid out under it; --check reads a laid set back")
    source_args(d)
    d.add_argument("--set", type=int, default=1, dest="set_number", help="which 13 cards are laid (1 to 4; the four sets are the whole deck; default 1)")
    d.add_argument("--deck", help="the taught deck's folder (default: the config's [camera] card_templates, else deck/ beside the config)")
    d.add_argument("--check", action="store_true", help="read the laid cards with the taught deck and say which are misread or unknown")
    d.add_argument("--layout", action="store_true", help="only print where to lay the cards")
    d.add_argument("--frames", type=int, default=15, help="frames to read first, so the camera's exposure settles (default 15)")
    d.set_defaults(run=deck)


def _deck_folder(args: argparse.Namespace, settings: VisionSettings) -> Path:
    if args.deck:
        return Path(args.deck)
    if settings.card_templates:
        return Path(settings.card_templates)
    return (Path(args.config).resolve().parent if args.config else Path.cwd()) / "deck"


def _frames(spec: str, count: int) -> list[Frame]:
    from vision.sources import open_source

    source = open_source(spec)
    source.open()
    frames = []
    try:
        for _ in range(count):
            frame = source.read()
            if frame is None:
                break
            frames.append(frame)
    finally:
        source.close()
    if not frames:
        raise ConfigError(f"camera deck: {spec} gave no picture")
    return frames


def deck(args: argparse.Namespace) -> int:
    from companion.cli.camera import _camera
    from vision.deck_layout import deck_layout

    if args.frames < 1:
        raise ConfigError("camera deck: --frames must be at least 1")
    spec, settings = _camera(args)
    layout = deck_layout(settings.markers, args.set_number)
    for line in layout.describe():
        print(line)
    if args.layout:
        return 0
    folder = _deck_folder(args, settings)
    if args.check and not (folder / "rank-A.png").is_file():
        raise ConfigError(f"camera deck --check: no taught deck in {folder}; teach it first (companion camera deck), or give --deck")
    frames = _frames(spec, args.frames)
    w, h = frames[-1].size
    print(f"{spec}: {w}x{h}, frame {frames[-1].index + 1}")
    if args.check:
        return _check(frames, replace(settings, card_templates=str(folder)), layout)
    return _teach(frames[-1].image, settings, layout, folder)


def _teach(image: Image, settings: VisionSettings, layout: DeckLayout, folder: Path) -> int:
    from vision.deck_check import read_laid
    from vision.deck_teach import teach

    taught, cards = teach(image, settings, layout)
    for line in taught.describe():
        print(line)
    taught.save(folder)
    print(f"saved to {folder}: rank-A.png ... rank-K.png, suit-S.png ... suit-C.png, deck.json")
    # what was taught, read back from the same picture the way the table will read it
    reads = read_laid([image], replace(settings, card_templates=str(folder)), layout)
    right = sum(r.right for r in reads)
    print(f"read back with it: {right} of {len(reads)} right" + ("" if right == len(reads) else f"; {'; '.join(' '.join(r.line().split()) for r in reads if not r.right)}"))
    absolute = folder.resolve()
    if settings.card_templates and Path(settings.card_templates).resolve() == absolute:
        print("the config's card_templates already names this folder: the table reads this deck from its next start")
    else:
        print(f'set card_templates = "{absolute}" in the config\'s [camera] table, then check other cards: companion camera deck --check --set 2')
    return 0


def _check(frames: list[Frame], settings: VisionSettings, layout: DeckLayout) -> int:
    from vision.deck_check import read_laid

    reads = read_laid([f.image for f in frames], settings, layout)
    for read in reads:
        print(read.line())
    wrong = [r for r in reads if r.wrong]
    unknown = [r for r in reads if r.face is None]
    right = len(reads) - len(wrong) - len(unknown)
    print(f"{right} of {len(reads)} read right, {len(unknown)} not sure, {len(wrong)} MISREAD")
    if wrong:
        print("a misread card is what must not happen: teach the deck again in even light (companion camera deck), and report it")
    elif unknown:
        print("cards it is not sure of are reported as unknown at the table, never guessed; more light or a sharper focus helps")
    return 0 if right == len(reads) else 1
