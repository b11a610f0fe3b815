# Table Companion reader array: the polling and reporting logic (firmware/PROTOCOL.md).
#
# Hardware-free so it runs on the host in the project's tests: the readers are objects with
# init() and read_uid() (None when no tag answers; OSError when the reader itself does not
# answer), the clock is a function returning milliseconds, and lines go out through write().
# main.py wires in the MFRC522 driver, time.ticks_ms and the USB serial port.
# Runs on MicroPython and CPython: no typing, no dataclasses, no f-strings.

from tcproto import frame, hexlify_upper

VERSION = "tc-array-1.0"
SEQ_MODULUS = 65536


class MsClock:
    """Milliseconds since start-up that never wrap, from MicroPython's wrapping ticks_ms."""

    def __init__(self, ticks_ms, ticks_diff):
        self._ticks_ms = ticks_ms
        self._ticks_diff = ticks_diff
        self._last = ticks_ms()
        self._total = 0

    def ms(self):
        now = self._ticks_ms()
        self._total += self._ticks_diff(now, self._last)
        self._last = now
        return self._total


class Channel:
    def __init__(self, reader):
        self.reader = reader
        self.uid = None  # the tag on this reader as last reported
        self.misses = 0  # polls in a row that did not see it
        self.missed_at = 0  # clock at the first of those polls: when it left
        self.ok = False  # the reader answers
        self.retry_at = 0


class ArrayFirmware:
    """Polls every reader in turn; reports arrivals, departures, health and a heartbeat.

    miss_limit: polls in a row a tag must be missing before it counts as departed (a tag at the
    edge of a field does not answer every poll). heartbeat_ms: how often a heartbeat goes out even
    when nothing happens. retry_ms: how often a reader that does not answer is re-initialised.
    """

    def __init__(self, readers, write, clock_ms, miss_limit=3, heartbeat_ms=1000, retry_ms=2000):
        self.channels = [Channel(reader) for reader in readers]
        self._write = write
        self._clock_ms = clock_ms
        self.miss_limit = miss_limit
        self.heartbeat_ms = heartbeat_ms
        self.retry_ms = retry_ms
        self.seq = 0
        self._next_heartbeat = 0

    def _send(self, kind, fields, ms=None):
        if ms is None:
            ms = self._clock_ms()
        self._write(frame(self.seq, ms, kind, fields))
        self.seq = (self.seq + 1) % SEQ_MODULUS

    def health(self):
        return "".join("O" if ch.ok else "F" for ch in self.channels)

    def heartbeat(self):
        self._send("H", [self.health()])
        self._next_heartbeat = self._clock_ms() + self.heartbeat_ms

    def boot(self):
        """Power-up: initialise every reader, then say who we are and how they are."""
        self.seq = 0
        for ch in self.channels:
            self._init(ch, self._clock_ms())
        self._send("B", [VERSION, str(len(self.channels))])
        self.heartbeat()

    def _init(self, ch, now):
        try:
            ch.reader.init()
            ch.ok = True
        except OSError:
            ch.ok = False
            ch.retry_at = now + self.retry_ms

    def step(self):
        """One round over all readers; a heartbeat if one is due or a reader's health changed."""
        before = self.health()
        for index in range(len(self.channels)):
            self._poll(index, self.channels[index])
        if self.health() != before or self._clock_ms() >= self._next_heartbeat:
            self.heartbeat()

    def _poll(self, index, ch):
        now = self._clock_ms()
        if not ch.ok:
            if now < ch.retry_at:
                return
            self._init(ch, now)
            if not ch.ok:
                return
        try:
            uid = ch.reader.read_uid()
        except OSError:
            # The reader stopped answering. Say nothing about its tag: when it answers again,
            # the tag is either still there (nothing to say) or gone (a departure).
            ch.ok = False
            ch.retry_at = now + self.retry_ms
            return
        seen = self._clock_ms()
        if uid is None:
            if ch.uid is not None:
                if ch.misses == 0:
                    ch.missed_at = seen
                ch.misses += 1
                if ch.misses >= self.miss_limit:
                    self._send("D", [str(index), hexlify_upper(ch.uid)], ch.missed_at)
                    ch.uid = None
                    ch.misses = 0
            return
        ch.misses = 0
        if uid == ch.uid:
            return
        if ch.uid is not None:
            self._send("D", [str(index), hexlify_upper(ch.uid)], seen)
        self._send("A", [str(index), hexlify_upper(uid)], seen)
        ch.uid = uid

    def run(self, feed=None):
        """Forever: boot, then poll. ``feed`` is called every round (a watchdog)."""
        self.boot()
        while True:
            self.step()
            if feed is not None:
                feed()
