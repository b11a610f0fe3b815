"""``companion venue``: every table of a venue on one page, from what the tables publish to the broker."""

from __future__ import annotations

import argparse
import os
import signal
import threading
from pathlib import Path
from typing import Any

from companion.venue.broker import BrokerConfig
from companion.core.errors import ConfigError

PASSWORD_ENV = "COMPANION_BROKER_PASSWORD"


def add_parser(sub: Any) -> None:
    p = sub.add_parser("venue", help="show every table of a venue on one page (tables publish to an MQTT broker)")
    p.add_argument("--broker", required=True, metavar="HOST[:PORT]", help="the venue's MQTT broker (port default 8883, or 1883 without --ca-file)")
    p.add_argument("--venue", required=True, help="the venue name the tables publish under ([broker] venue in each table's config)")
    p.add_argument("--db", default="venue.sqlite", help="the venue's own database (default venue.sqlite)")
    p.add_argument("--host", default="0.0.0.0", help="the address to serve the venue page on (default every interface)")
    p.add_argument("--port", type=int, default=8090, help="the venue page's port (default 8090; 0 = any free port)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a name the page answers to besides this machine's own (repeat for more)")
    p.add_argument("--username", default="", help=f"the venue's broker user (its password in ${PASSWORD_ENV})")
    p.add_argument("--ca-file", default="", help="the CA certificate of the broker's TLS listener (TLS is on when given)")
    p.set_defaults(run=run)


def broker_config(args: argparse.Namespace) -> BrokerConfig:
    """The venue's broker settings from the command line; one :class:`ConfigError` naming the option."""
    host, _, port_text = str(args.broker).rpartition(":") if ":" in args.broker else (args.broker, "", "")
    if not host:
        raise ConfigError(f"--broker: {args.broker!r} has no host name")
    default_port = 8883 if args.ca_file else 1883
    try:
        port = int(port_text) if port_text else default_port
    except ValueError:
        raise ConfigError(f"--broker: {port_text!r} is not a port number") from None
    if not 0 < port <= 65535:
        raise ConfigError(f"--broker: {port} is not a port number (1-65535)")
    if not args.venue or any(ch in args.venue for ch in "/+#"):
        raise ConfigError(f'--venue: "{args.venue}" must be a non-empty name without "/", "+" or "#"')
    if args.ca_file and not Path(args.ca_file).is_file():
        raise ConfigError(f"--ca-file: {args.ca_file} is not a file")
    if not 0 <= args.port <= 65535:
        raise ConfigError(f"--port: {args.port} is not a port number")
    return BrokerConfig(
        host=host, port=port, venue=args.venue, table="venue", username=args.username,
        password=os.environ.get(PASSWORD_ENV, ""), ca_file=args.ca_file,
    )


def run(args: argparse.Namespace, stop: threading.Event | None = None) -> int:
    from companion.app.venue import VenueConfig, VenueService

    config = VenueConfig(
        broker=broker_config(args), db=Path(args.db), host=args.host, port=args.port, hosts=tuple(args.allow_host)
    )
    waiter = stop or threading.Event()
    if stop is None and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: waiter.set())
    service = VenueService(config).start()
    b = config.broker
    print(f"venue {b.venue}: listening to {b.host}:{b.port}{' (TLS)' if b.ca_file else ''}; events kept in {config.db}")
    print(f"venue page: {service.url}", flush=True)
    try:
        while not waiter.wait(1.0):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        service.stop()
    return 0
