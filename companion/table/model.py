"""What is where on the table, as the readers see it, and the TAG observations that follow.

The table model knows the zones (from the lead's config loader, as :class:`~companion.core.Zone`
objects) and which reader watches each. Readers hand it :class:`ReaderEvent` values from their own
threads; it debounces flicker, looks the tag up in the registry, and delivers one TAG
:class:`~companion.core.Observation` per real arrival or departure to the sink (the session). It
does not interpret: which move a tag on a pile means is the game's ``interpret()``.

A tag no one enrolled still reaches the sink (``card`` None; the game turns it into an
Unexplained alert) and also raises an alert here naming the zone, counted per reader. So does a pile
reaching the depth its reader reads (:mod:`companion.table.depth`): a card laid on top is not seen.

A button wired to an array (a call button on a player's pad) is a zone's reader too: each press
becomes one PRESS observation of that zone (the firmware has debounced it already).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Protocol

from companion.core import Observation, Unexplained, Zone
from companion.core.seen import PressSeen, TagEvent, TagSeen
from companion.table.debounce import Debouncer
from companion.table.depth import Depth, at_depth, depth_of
from companion.core.readers import ButtonPress, ReaderEvent

log = logging.getLogger(__name__)

DEFAULT_DEBOUNCE_S = 0.25
"""How long a departure waits for the same tag to come back before it counts (a setting)."""


class CardLookup(Protocol):
    """What the model needs of the tag registry."""

    def card_for(self, uid: str) -> str | None: ...


class HealthCounter(Protocol):
    """What the model needs of the health board (:class:`hardware.health.HealthBoard` is one)."""

    def count(self, reader_id: str, counter: str, n: int = 1) -> None: ...


ObservationSink = Callable[[Observation], object]
AlertSink = Callable[[Unexplained], object]


class TableModel:
    """Reader events in, TAG observations out; thread-safe (readers call from their threads).

    The sink is called under the model's lock, so observations reach it in the order the model
    decided them, whichever reader thread they came from. Keep the sink quick (Session.submit
    queues). Call :meth:`stop` at shutdown: it releases held departures and joins the timer.
    """

    def __init__(
        self,
        zones: Iterable[Zone],
        registry: CardLookup,
        sink: ObservationSink,
        *,
        on_alert: AlertSink | None = None,
        health: HealthCounter | None = None,
        debounce_s: float = DEFAULT_DEBOUNCE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._by_reader: dict[str, Zone] = {}
        self._depth: dict[str, Depth] = {}
        self._at_depth: set[str] = set()  # readers whose stack reached its depth (alerted once until it drops)
        self._by_name: dict[str, Zone] = {}
        for zone in zones:
            self._by_name[zone.name] = zone
            if zone.reader is not None:
                if zone.reader in self._by_reader:
                    raise ValueError(f'reader "{zone.reader}" watches both "{self._by_reader[zone.reader].name}" and "{zone.name}"')
                self._by_reader[zone.reader] = zone
                if (depth := depth_of(zone)) is not None:
                    self._depth[zone.reader] = depth
        self._registry = registry
        self._sink = sink
        self._on_alert = on_alert
        self._health = health
        self._clock = clock
        self._debouncer = Debouncer(debounce_s)
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self._timer: threading.Thread | None = None
        self._stopped = False
        self._present: dict[str, dict[str, None]] = {}
        self._unzoned_warned: set[str] = set()
        self.delivered = 0
        self.unknown_tags = 0

    # -- readers call these -------------------------------------------------------------------

    def reader_event(self, event: ReaderEvent) -> None:
        """A reader saw a tag arrive or depart. Safe to call from any thread."""
        with self._lock:
            for ready in self._debouncer.feed(event, self._clock()):
                self._deliver(ready)
            if len(self._debouncer) and not self._stopped:
                self._ensure_timer()
                self._wake.notify()

    def button_pressed(self, press: ButtonPress) -> None:
        """A button wired to an array was pressed. Safe to call from any thread."""
        with self._lock:
            zone = self._by_reader.get(press.reader)
            if zone is None:
                self._count(press.reader, "unzoned")
                if press.reader not in self._unzoned_warned:
                    self._unzoned_warned.add(press.reader)
                    log.warning("button %s is on no zone in the table config; its presses are ignored", press.reader)
                return
            observation = PressSeen(zone.ref(), press.table_time).observation(press.source)
            self.delivered += 1
            try:
                self._sink(observation)
            except Exception:  # as for tags: the sink's failure must not stop the readers
                log.exception("the observation sink failed on %s", observation)
                self._count(press.reader, "sink_errors")

    def resync(self, reader: str, uids: Iterable[str], table_time: float, judge: bool) -> None:
        """A reader says which tags lie on it now (the reader array's heartbeat listing).

        ``judge`` False (the service has just opened the array, after a restart): the model takes
        the listing as it is, with no observation: those cards were judged when they landed, and
        the session has resumed from its log. ``judge`` True (frames were lost on a running link):
        each difference is delivered as the arrival or departure that was missed, at ``table_time``.
        """
        with self._lock:
            zone = self._by_reader.get(reader)
            if zone is None:
                return
            for ready in self._debouncer.release_reader(reader):
                self._deliver(ready)
            present = self._present.setdefault(reader, {})
            listed = dict.fromkeys(uids)
            gone = [uid for uid in present if uid not in listed]
            new = [uid for uid in listed if uid not in present]
            if not gone and not new:
                return
            if not judge:
                for uid in gone:
                    del present[uid]
                present.update(dict.fromkeys(new))
                log.info("%s: rebuilt from its reader's listing: %d tag(s) lie there", zone.name, len(present))
                self._count(reader, "rebuilt")
                self._check_depth(zone, reader, len(present))
                return
            log.warning("%s: frames were lost; %d missed arrival(s) and %d departure(s) delivered now", zone.name, len(new), len(gone))
            for uid in gone:
                self._deliver(ReaderEvent(reader, uid, "depart", table_time))
            for uid in new:
                self._deliver(ReaderEvent(reader, uid, "arrive", table_time))
            self._count(reader, "resync_events")

    def set_registry(self, registry: CardLookup) -> None:
        """Swap the registry (a new game, or cards enrolled elsewhere)."""
        with self._lock:
            self._registry = registry

    # -- what is where ----------------------------------------------------------------------

    def zone_for(self, reader: str) -> Zone | None:
        return self._by_reader.get(reader)

    def present(self, zone_name: str) -> tuple[str, ...]:
        """UIDs of the tags now in ``zone_name``, oldest first (as its reader sees them)."""
        zone = self._by_name.get(zone_name)
        if zone is None:
            raise KeyError(f'no zone "{zone_name}"')
        with self._lock:
            return tuple(self._present.get(zone.reader or "", {}))

    def depth(self, zone_name: str) -> Depth | None:
        """How deep a stack the zone's reader reads (measured, or the default guess); None if not known."""
        zone = self._by_name.get(zone_name)
        if zone is None:
            raise KeyError(f'no zone "{zone_name}"')
        return self._depth.get(zone.reader or "")

    def snapshot(self) -> dict[str, list[dict[str, str | None]]]:
        """Every reader-watched zone -> the tags in it, with their cards (None if not enrolled)."""
        with self._lock:
            return {
                zone.name: [{"uid": uid, "card": self._registry.card_for(uid)} for uid in self._present.get(reader, {})]
                for reader, zone in self._by_reader.items()
            }

    @property
    def suppressed_flickers(self) -> int:
        return self._debouncer.suppressed

    # -- lifecycle --------------------------------------------------------------------------

    def stop(self, timeout: float = 5.0) -> None:
        """Release held departures now and stop the debounce timer."""
        with self._lock:
            self._stopped = True
            for ready in self._debouncer.flush():
                self._deliver(ready)
            self._wake.notify_all()
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.join(timeout)
            if timer.is_alive():
                log.error("the debounce timer did not stop within %.1f s", timeout)

    def __enter__(self) -> "TableModel":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- inside -----------------------------------------------------------------------------

    def _ensure_timer(self) -> None:
        if self._timer is None:
            self._timer = threading.Thread(target=self._run_timer, name="table-debounce", daemon=True)
            self._timer.start()

    def _run_timer(self) -> None:
        with self._lock:
            while not self._stopped:
                due = self._debouncer.next_due()
                wait = 1.0 if due is None else due - self._clock()
                if wait > 0:
                    self._wake.wait(min(wait, 1.0))
                    continue
                for ready in self._debouncer.expire(self._clock()):
                    self._deliver(ready)

    def _deliver(self, event: ReaderEvent) -> None:
        zone = self._by_reader.get(event.reader)
        if zone is None:
            self._count(event.reader, "unzoned")
            if event.reader not in self._unzoned_warned:
                self._unzoned_warned.add(event.reader)
                log.warning("reader %s watches no zone in the table config; its tags are ignored", event.reader)
            return
        present = self._present.setdefault(event.reader, {})
        if event.event == "arrive":
            if event.uid in present:
                log.debug("%s: tag %s reported again while present", zone.name, event.uid)
                return
            present[event.uid] = None
        else:
            present.pop(event.uid, None)
        card = self._registry.card_for(event.uid)
        if card is None and event.event == "arrive":
            self._unknown(zone, event)
        self._check_depth(zone, event.reader, len(present))
        observation = TagSeen(zone.ref(), TagEvent(event.event), event.uid, card, event.table_time).observation(event.source)
        self.delivered += 1
        try:
            self._sink(observation)
        except Exception:  # the sink's failure must not stop the readers; it is logged with its trace
            log.exception("the observation sink failed on %s", observation)
            self._count(event.reader, "sink_errors")

    def _check_depth(self, zone: Zone, reader: str, count: int) -> None:
        depth = self._depth.get(reader)
        if depth is None:
            return
        if count < depth.cards:
            self._at_depth.discard(reader)
            return
        if reader in self._at_depth:
            return
        self._at_depth.add(reader)
        self._count(reader, "at_depth")
        self._raise(at_depth(zone, depth))

    def _unknown(self, zone: Zone, event: ReaderEvent) -> None:
        self.unknown_tags += 1
        self._count(event.reader, "unknown_tags")
        alert = Unexplained(
            zone=zone.name,
            what=f"a tag no one enrolled (uid {event.uid}) arrived at {zone.name}",
            fix=f"take the card off {zone.name}, or enrol its tag at {zone.name}",
        )
        self._raise(alert)

    def _raise(self, alert: Unexplained) -> None:
        log.warning("%s", alert.what)
        if self._on_alert is not None:
            try:
                self._on_alert(alert)
            except Exception:  # as for the sink: report, keep reading
                log.exception("the alert sink failed on %s", alert)

    def _count(self, reader: str, counter: str) -> None:
        if self._health is not None:
            self._health.count(reader, counter)
