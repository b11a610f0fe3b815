"""``companion enroll --game G --zone Z``: give each card of a deck its NFC tag, one tap at a time.

The cards come from the game (if it lists its deck) or from ``--cards FILE``. The reader is the
one watching zone Z in the table config (``--config``), or ``--reader``. Each card is asked for in
turn; the tag tapped is enrolled in the registry at once, so stopping (Ctrl-C) loses nothing and
running the same command again resumes with the first card still without a tag. A tag that is
already another card's, or a second tag for a card, is refused with the reason.
Stop ``companion serve`` first: the readers can only be open in one program at a time.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.core.errors import ConfigError, EnrolmentError
from companion.core.readers import ARRAY_SCHEME, ArrayChannel, ReaderAddress
from companion.table.enrolment import EnrolmentWalk, deck_of_game, read_cards_file
from companion.table.registry import TagRegistry

if TYPE_CHECKING:
    from companion.app.config import ArrayConfig


def add_parser(sub: Any) -> None:
    p = sub.add_parser("enroll", help="give each card of a deck its NFC tag, tapping them one by one")
    p.add_argument("--game", required=True, help="the game whose deck to enrol (escape-master, the-mountain, ...)")
    p.add_argument("--zone", required=True, help="the zone whose reader you tap the cards on")
    p.add_argument("--config", help="the table config: finds the zone's reader, the array's port and the tag registry")
    p.add_argument("--reader", help="the reader to use instead: an nfcpy path (usb:072f:2200, tty:AMA0:pn532), array:N or array:NAME:N")
    p.add_argument("--port", help="the serial port of the reader array the reader is on (array:N, array:NAME:N)")
    p.add_argument("--tags", help="the tag registry file (default: the config's [tags] registry)")
    p.add_argument("--cards", help="the card ids, one per line, for a game that does not list its deck")
    p.add_argument("--timeout", type=float, default=None, help="stop if no tag is tapped for this many seconds")
    p.set_defaults(run=run)


def _resolve(args: argparse.Namespace) -> tuple[str, dict[str, ArrayConfig], Path]:
    """(reader, the reader arrays by name, registry path) from the config and the overrides."""
    from companion.app.config import ArrayConfig, load_config

    reader, tags = args.reader, args.tags
    arrays: dict[str, ArrayConfig] = {}
    if args.config:
        config = load_config(args.config)
        zone = next((z for z in config.zones if z.name == args.zone), None)
        if zone is None:
            raise ConfigError(f'{args.config}: no zone "{args.zone}" (zones: {", ".join(z.name for z in config.zones)})')
        reader = reader or zone.reader
        arrays = config.reader_arrays
        tags = tags or str(config.tag_registry)
    if not reader:
        raise ConfigError(f'no reader for zone "{args.zone}": give --config (with a reader on that zone) or --reader')
    if not tags:
        raise ConfigError("no tag registry: give --config or --tags FILE")
    address = ReaderAddress.parse(reader)
    if args.port and address.scheme == ARRAY_SCHEME:
        array = ArrayChannel.parse(address).array
        arrays[array] = ArrayConfig(args.port, arrays[array].baud) if array in arrays else ArrayConfig(args.port)
    return reader, arrays, Path(tags)


def _deck(args: argparse.Namespace) -> tuple[str, ...]:
    if args.cards:
        return read_cards_file(args.cards)
    from companion.games import get_game

    deck = deck_of_game(get_game(args.game))
    if deck is None:
        raise EnrolmentError(f"{args.game} does not list its cards: give them with --cards FILE (one card id per line)")
    return deck


def run(args: argparse.Namespace) -> int:
    from hardware.tap import TapSource  # hardware only when a reader is really wanted

    reader, arrays, tags = _resolve(args)
    registry = TagRegistry(tags, args.game)
    walk = EnrolmentWalk(registry, _deck(args))
    total = len(walk.deck)
    if walk.current is None:
        print(f"every card of {args.game} already has its tag ({total} cards in {tags})")
        return 0
    done = total - len(walk.remaining())
    if done:
        print(f"resuming: {done} of {total} cards already have their tags")
    enrolled = 0
    last_uid: str | None = None
    with TapSource(reader, arrays=arrays) as taps:
        try:
            while (card := walk.current) is not None:
                print(f"tap {card} on {args.zone}  ({walk.deck.index(card) + 1}/{total})", flush=True)
                while True:
                    uid = taps.next_arrival(args.timeout)
                    if uid is None:
                        print(f"no tag tapped for {args.timeout:g} s; run the same command to resume", file=sys.stderr)
                        return 1
                    if uid == last_uid:
                        continue  # the tag just enrolled, still at the edge of the field
                    offered = walk.offer(uid)
                    if offered.enrolled:
                        print(f"  {offered.message}", flush=True)
                        enrolled += 1
                        last_uid = uid
                        break
                    print(f"  refused: {offered.message}; tap {card}", flush=True)
        except KeyboardInterrupt:
            print(f"\nstopped after {enrolled} new tag(s); run the same command to resume", file=sys.stderr)
            raise
    print(f"done: {enrolled} new tag(s); all {total} cards of {args.game} have their tags ({tags})")
    return 0
