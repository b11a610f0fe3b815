# Table Companion reader array: the polling and reporting logic (firmware/PROTOCOL.md).
#
# Hardware-free so it runs on the host in the project's tests: the readers are MFRC522 driver
# objects (firmware/mfrc522.py) on a real or simulated SPI bus, the clock is a function returning
# milliseconds, and lines go out through write(). main.py wires in the SPI bus, time.ticks_ms and the
# USB serial port. Runs on MicroPython and CPython: no typing, no dataclasses, no f-strings.
#
# Two kinds of reader (docs/hardware.md, "The pile mechanism"):
#   pad   a hand pad or a table slot: a card comes and goes. Its antenna is on only while it is
#         polled (so it never hears a neighbour's tags, and every tag on it wakes IDLE), every tag
#         that answers is read, and one missing for miss_limit polls in a row has departed.
#   vpile an ISO/IEC 15693 pile on a PN5180 (firmware 2.4, tcvicinity.py): inventories, not halting.
#   pile  an RC522 stack that grows: its antenna stays on, and every tag read is halted (HLTA), so only a
#         newly placed card answers the next REQA, however many lie beneath it. Cards still there
#         are checked a few per poll by WUPA + SELECT with their own UID (only that tag answers);
#         one that fails pile_miss_limit checks in a row (each tried check_tries times) has departed.
# Piles are polled first in every round; a pile may not neighbour a pad or another pile, since a card
# landing on it between its poll and a neighbour's could be read and halted by the neighbour.
#
# Buttons (firmware 2.2): call buttons on the players' pads, each on an input pin wired to ground
# (pulled up: value() 0 while pressed), read once per round; a press is reported with P once it
# has held press_rounds rounds in a row, stamped when it went down; it must be let go (as long)
# before it can be pressed again.
#
# Lights (firmware 2.3): one addressable LED per channel (tcleds.py). The host's L frames come in
# through host_input() (what has arrived, b"" if nothing), are read between polling rounds, and a
# line that is not a good L frame is answered with one R frame saying why, and counted.

from tcproto import frame, hexlify_upper, MAX_LINE
from tcleds import parse_led
from tcvicinity import VPILE, VicinityPoller, VicinityState

VERSION = "tc-array-2.4"
HOST_BYTES_PER_ROUND = 512  # read at most this much of the host's input a round: polling comes first
SEQ_MODULUS = 65536
PAD = "pad"
PILE = "pile"
KIND_LETTERS = {PAD: "d", PILE: "p", VPILE: "v"}  # the T figure "kinds", one letter per channel (firmware 2.4)


def pile_pad_refusal(a, kind_a, b, kind_b):
    """Why a pile and a pad may not be neighbours (None if the pair is not one of each).

    A card slapped on the pile after the pile's poll and before the pad's is read and halted by the
    pad (its field reaches the pile's powered cards), then kept halted by the pile's always-on field:
    the pile never reports it (tests/firmware/test_piles.py reproduces it). docs/hardware.md, "No
    lost card", says why the firmware refuses the layout rather than checking the pad's reads.
    """
    if PILE not in (kind_a, kind_b) or PAD not in (kind_a, kind_b):
        return None
    pile, pad = (a, b) if kind_a == PILE else (b, a)
    return ("array:%d (a pile) and array:%d (a pad) are neighbours: a card slapped on the pile just before the pad "
            "is polled is read and halted by the pad, then kept halted by the pile's always-on field, and the pile "
            "never reports it; move them ~8 cm apart or make both pads" % (pile, pad))


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
    def __init__(self, reader, kind):
        self.reader = reader
        self.kind = kind
        self.known = []  # the tags on this reader as last reported, oldest first
        self.misses = {}  # uid -> polls (pads) or checks (piles) in a row that missed it
        self.missed_at = {}  # uid -> clock at the first of those: when it left
        self.ok = False  # the reader answers
        self.retry_at = 0
        self.cursor = 0  # the next known tag a pile checks
        self.woken = False  # a pile's field came (back) on: its known tags are IDLE, not halted
        self.polls = 0
        self.reads = 0


class Button:
    def __init__(self, pin):
        self.pin = pin
        self.down = False  # the button as last reported: pressed or not
        self.count = 0  # rounds in a row it has read the other way
        self.since = 0  # clock at the first of them: when it went down (or up)


class ArrayFirmware:
    """Polls every reader in turn; reports arrivals, departures, health and a heartbeat.

    kinds: PAD or PILE per reader (default: all pads). neighbours: pairs of readers close enough to
    hear each other's tags; only pads may be neighbours (a pile's field stays on: two piles would read
    each other's new cards, and a pile next to a pad loses cards, pile_pad_refusal). miss_limit: polls
    in a row a pad's tag must be missing before it departs (a tag at the edge of a field does not
    answer every poll). heartbeat_ms: how often a heartbeat (with every reader's known tags) goes
    out even when nothing happens. retry_ms: how often a reader that does not answer is
    re-initialised. switch_antennas False keeps every field on (single-tag pads read with WUPA):
    only for arrays whose readers are far apart. buttons: input pins (``value()`` 0 while pressed),
    button N on buttons[N]; press_rounds: rounds a button must read pressed (or let go) in a row.

    Timing (``companion hw check --timing``): given ``ticks_us`` and ``ticks_diff`` (MicroPython's
    time.ticks_us and time.ticks_diff), the array times a register read, a register write and a
    Pin.value() at boot (``self_test_count`` of each), and every polling round; each heartbeat then
    ends with T frames: ``board`` (name, value) pairs saying what it runs on, the boot self-test, and
    the rounds since the last heartbeat.

    Lights: ``leds`` a tcleds.Leds (one pixel per channel), ``host_input`` a function returning the
    bytes the host has sent since it was last called (b"" when none). Each heartbeat then ends with
    T frames that say ``leds`` (how many) and ``led_bad`` (host lines refused so far).
    """

    def __init__(self, readers, write, clock_ms, kinds=None, neighbours=(), miss_limit=3, heartbeat_ms=1000,
                 retry_ms=2000, pile_miss_limit=2, checks_per_poll=2, check_tries=3, max_new=4, switch_antennas=True,
                 ticks_us=None, ticks_diff=None, board=(), self_test_count=200, buttons=(), press_rounds=2,
                 leds=None, host_input=None, vicinity=None):
        kinds = list(kinds) if kinds is not None else [PAD] * len(readers)
        if len(kinds) != len(readers):
            raise ValueError("%d readers but %d kinds" % (len(readers), len(kinds)))
        for kind in kinds:
            if kind not in KIND_LETTERS:
                raise ValueError("reader kind %r is not one of %r, %r, %r" % (kind, PAD, PILE, VPILE))
        for a, b in neighbours:
            if kinds[a] != PAD and kinds[b] != PAD:
                raise ValueError("readers %d and %d are neighbouring piles: both fields stay on and each would "
                                 "read the other's new cards; move them apart or make one a pad" % (a, b))
            refused = pile_pad_refusal(a, kinds[a], b, kinds[b])
            if refused:
                raise ValueError(refused)
        self.channels = [Channel(reader, kind) for reader, kind in zip(readers, kinds)]
        if len(buttons) > 16:
            raise ValueError("%d buttons; an array reports 16 at most" % len(buttons))
        self.buttons = [Button(pin) for pin in buttons]
        self.press_rounds = press_rounds
        # Piles first: a card landing on a pile is halted by its own reader before any pad's field is on.
        self.order = [i for i, k in enumerate(kinds) if k != PAD] + [i for i, k in enumerate(kinds) if k == PAD]
        self.vicinity = VicinityPoller(self, **(vicinity or {})) if VPILE in kinds else None
        self._write = write
        self._clock_ms = clock_ms
        self.miss_limit = miss_limit
        self.heartbeat_ms = heartbeat_ms
        self.retry_ms = retry_ms
        self.pile_miss_limit = pile_miss_limit
        self.checks_per_poll = checks_per_poll
        self.check_tries = check_tries
        self.max_new = max_new
        self.switch_antennas = switch_antennas
        self.seq = 0
        self._next_heartbeat = 0
        self._ticks_us = ticks_us
        self._ticks_diff = ticks_diff
        self.board = list(board)
        self.self_test_count = self_test_count
        self.timing = []  # (name, value) pairs of the boot self-test
        self._rounds = 0
        self._round_us = 0
        self._round_max_us = 0
        self.leds = leds
        self._host_input = host_input
        self._host_line = b""
        self._host_overflow = False  # the line now arriving is already too long: refused at its newline

    # -- frames -------------------------------------------------------------------------------

    def _send(self, kind, fields, ms=None):
        if ms is None:
            ms = self._clock_ms()
        self._write(frame(self.seq, ms, kind, fields))
        self.seq = (self.seq + 1) % SEQ_MODULUS

    def health(self):
        return "".join("O" if ch.ok else "F" for ch in self.channels)

    def _listing(self, ms):
        """The K frames naming every reader's known tags, each frame as long as a line allows."""
        frames = []
        for index in range(len(self.channels)):
            uids = [hexlify_upper(uid) for uid in self.channels[index].known]
            while uids:
                fields = [str(index)]
                while uids and len(frame(self.seq, ms, "K", fields + [uids[0]])) <= MAX_LINE - 6:
                    fields.append(uids.pop(0))
                frames.append(fields)
        return frames

    def heartbeat(self):
        """H (health, and how many K frames follow), the K frames, then one S (stats) per reader.

        The host rebuilds what lies on every reader from one heartbeat's K frames (a restart, lost
        frames): nothing else is sent between them, so they are one snapshot.
        """
        ms = self._clock_ms()
        listing = self._listing(ms)
        self._send("H", [self.health(), str(len(listing))], ms)
        for fields in listing:
            self._send("K", fields, ms)
        for index in range(len(self.channels)):
            ch = self.channels[index]
            exchanges, collisions, errors = ch.reader.take_stats() if ch.ok else (0, 0, 0)
            self._send("S", [str(index), str(ch.polls), str(ch.reads), str(collisions), str(errors)], ms)
            ch.polls = ch.reads = 0
        if self._ticks_us is not None or self.leds is not None or self.vicinity is not None:
            for fields in self._timing_frames(ms):
                self._send("T", fields, ms)
        self._next_heartbeat = ms + self.heartbeat_ms

    def _timing_frames(self, ms):
        """T frames: every timing figure as name=value, as many to a frame as a line holds."""
        pairs = self.board + self.timing
        if self.vicinity is not None:
            pairs = pairs + [("kinds", "".join(KIND_LETTERS[ch.kind] for ch in self.channels))]
            pairs = pairs + self.vicinity.timing(self.channels)
        if self.leds is not None:
            pairs = pairs + [("leds", str(self.leds.count)), ("led_bad", str(self.leds.refused))]
        if self._rounds:
            pairs = pairs + [("rounds", str(self._rounds)), ("round_ms", "%.1f" % (self._round_us / self._rounds / 1000)),
                             ("max_ms", "%.1f" % (self._round_max_us / 1000))]
        self._rounds = self._round_us = self._round_max_us = 0
        items = ["%s=%s" % pair for pair in pairs]
        frames = []
        while items:
            fields = [items.pop(0)]
            while items and len(frame(self.seq, ms, "T", fields + [items[0]])) <= MAX_LINE - 6:
                fields.append(items.pop(0))
            frames.append(fields)
        return frames

    def self_test(self):
        """Time the driver's register accesses on the first reader that answers (none: no figures)."""
        self.timing = []
        # An RC522 first: the host's poll-round model reads rd_us as one 2-byte transaction (a PN5180's read is two frames).
        for ch in [c for c in self.channels if c.kind != VPILE] + [c for c in self.channels if c.kind == VPILE]:
            if ch.ok:
                read, write, pin = ch.reader.measure(self._ticks_us, self._ticks_diff, self.self_test_count)
                self.timing = [("n", str(self.self_test_count)), ("rd_us", "%.1f" % read), ("wr_us", "%.1f" % write),
                               ("pin_us", "%.1f" % pin)]
                return

    def boot(self):
        """Power-up: initialise every reader, then say who we are and how they are."""
        self.seq = 0
        if self.leds is not None:
            self.leds.reset()  # dark until the host says otherwise
        for ch in self.channels:
            self._init(ch, self._clock_ms())
        if self._ticks_us is not None:
            self.self_test()
        self._send("B", [VERSION, str(len(self.channels))])
        self.heartbeat()

    def _init(self, ch, now):
        try:
            ch.reader.init(field=ch.kind != PAD or not self.switch_antennas)
            ch.ok = True
            ch.woken = True
            if ch.kind == VPILE:
                ch.vicinity = VicinityState()  # its field came on: no tag is quiet; the first poll hears and quiets them
        except OSError:
            ch.ok = False
            ch.retry_at = now + self.retry_ms

    # -- polling ------------------------------------------------------------------------------

    def step(self):
        """One round over all readers; a heartbeat if one is due or a reader's health changed."""
        before = self.health()
        start = self._ticks_us() if self._ticks_us is not None else 0
        for index in self.order:
            self._poll(index, self.channels[index])
        for index in range(len(self.buttons)):
            self._poll_button(index, self.buttons[index])
        if self._host_input is not None:
            self._read_host()
        if self.leds is not None:
            self.leds.render(self._clock_ms())
        if self._ticks_us is not None:
            took = self._ticks_diff(self._ticks_us(), start)
            self._rounds += 1
            self._round_us += took
            self._round_max_us = max(self._round_max_us, took)
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
        ch.polls += 1
        try:
            if ch.kind == VPILE:
                self.vicinity.poll(index, ch)
            elif ch.kind == PILE:
                self._poll_pile(index, ch)
            else:
                self._poll_pad(index, ch)
        except OSError:
            # The reader stopped answering. Say nothing about its tags: when it answers again,
            # each is either still there (nothing to say) or gone (a departure).
            ch.ok = False
            ch.retry_at = now + self.retry_ms

    # -- the host's frames ---------------------------------------------------------------------

    def _read_host(self):
        """The host's whole lines so far, each taken or refused; a part line waits for the rest."""
        read = 0
        while read < HOST_BYTES_PER_ROUND:
            chunk = self._host_input()
            if not chunk:
                return
            read += len(chunk)
            lines = chunk.split(b"\n")
            for index in range(len(lines)):
                part = lines[index]
                if self._host_overflow or len(self._host_line) + len(part) > MAX_LINE:
                    self._host_overflow = True
                    self._host_line = b""
                else:
                    self._host_line += part
                if index < len(lines) - 1:  # a newline ended this line
                    line, overflow = self._host_line, self._host_overflow
                    self._host_line, self._host_overflow = b"", False
                    if overflow:
                        self._refuse("format")
                    elif line.strip():
                        self._host_frame(line)

    def _host_frame(self, line):
        try:
            if self.leds is None:
                raise ValueError("type")  # no LEDs fitted: an L frame is not one this array takes
            seq, channel, colour, pattern = parse_led(line)
            self.leds.take(seq, channel, colour, pattern, self._clock_ms())
        except ValueError as exc:
            self._refuse(str(exc))

    def _refuse(self, reason):
        if self.leds is not None:
            self.leds.refused += 1
        self._send("R", [reason])

    def _poll_button(self, index, button):
        """A button that has read the other way for press_rounds rounds changes; going down is a P."""
        down = button.pin.value() == 0
        if down == button.down:
            button.count = 0
            return
        if button.count == 0:
            button.since = self._clock_ms()
        button.count += 1
        if button.count >= self.press_rounds:
            button.down = down
            button.count = 0
            if down:
                self._send("P", [str(index)], button.since)

    def _arrived(self, index, ch, uid):
        ch.reads += 1
        ch.misses.pop(uid, None)
        if uid not in ch.known:
            ch.known.append(uid)
            self._send("A", [str(index), hexlify_upper(uid)])

    def _missed(self, index, ch, uid, limit, at):
        if uid not in ch.misses:
            ch.misses[uid] = 0
            ch.missed_at[uid] = at
        ch.misses[uid] += 1
        if ch.misses[uid] >= limit:
            ch.known.remove(uid)
            del ch.misses[uid]
            self._send("D", [str(index), hexlify_upper(uid)], ch.missed_at.pop(uid))

    def _poll_pad(self, index, ch):
        reader = ch.reader
        seen = []
        if self.switch_antennas:
            reader.antenna(True)  # every tag on the pad powers up IDLE: each answers one REQA
            try:
                failures = 0  # reads garbled this poll (a bit error): each is tried again, twice at most
                for _ in range(self.max_new + 2):
                    uid = reader.read_new(reset=True)
                    if uid is not None:
                        seen.append(uid)
                    elif not reader.failed or failures == 2:
                        break  # silence: every tag on the pad has been read
                    else:
                        failures += 1
            finally:
                reader.antenna(False)
        else:
            uid = reader.read_uid_woken()
            if uid is not None:
                seen.append(uid)
        at = self._clock_ms()
        for uid in seen:
            self._arrived(index, ch, uid)
        for uid in list(ch.known):
            if uid not in seen:
                self._missed(index, ch, uid, self.miss_limit, at)

    def _poll_pile(self, index, ch):
        reader = ch.reader
        if ch.woken:
            # The field was off (boot, a reader reset): every card on the pile woke IDLE and would
            # answer REQA together. Halt each known one by its own UID first; a big stack could not
            # be told apart by anticollision.
            ch.woken = False
            for uid in list(ch.known):
                self._check(index, ch, uid)
        for _ in range(self.max_new):  # only cards placed since they were last read answer REQA
            uid = reader.read_new()
            if uid is None:
                break
            self._arrived(index, ch, uid)
        for _ in range(min(self.checks_per_poll, len(ch.known))):
            ch.cursor %= len(ch.known)
            if self._check(index, ch, ch.known[ch.cursor]):
                ch.cursor += 1

    def _check(self, index, ch, uid):
        """Is ``uid`` still on the pile? Halts it again if so; counts a miss (maybe a departure) if not."""
        at = self._clock_ms()
        for _ in range(self.check_tries):
            if ch.reader.check(uid):
                ch.reads += 1
                ch.misses.pop(uid, None)
                ch.missed_at.pop(uid, None)
                return True
        self._missed(index, ch, uid, self.pile_miss_limit, at)
        return uid in ch.known

    def run(self, feed=None):
        """Forever: boot, then poll. ``feed`` is called every round (a watchdog)."""
        self.boot()
        while True:
            self.step()
            if feed is not None:
                feed()
