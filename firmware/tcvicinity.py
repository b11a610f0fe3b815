# Table Companion reader array: polling an ISO/IEC 15693 pile (a PN5180, firmware/pn5180.py).
#
# docs/hardware.md, "The ISO 15693 pile". Every poll is a 16-slot Inventory over the whole pile; a
# slot where answers collided is asked again with a 4-bit longer mask (ISO/IEC 15693-3's
# anticollision), a few masks a poll. Two things rest on different grounds:
#
#   departures  a census: the field goes off (every tag loses power and wakes READY, whatever it was
#               told before), then inventories until one is silent. A known card that answered none
#               has missed a census; before that counts, each missing card is told Reset to Ready
#               once (a quiet tag kept powered by a neighbour's field through the switching) and
#               the inventories go on. One that misses ``miss_limit`` censuses in a row has departed,
#               stamped with the start of the first. A census starts ``census_gap_ms`` after the last.
#   arrivals    Stay Quiet, only to speed things up: every card read is told to keep quiet, so the
#               next inventory hears only cards laid since, each alone in its slot, and a new card
#               is reported at the next poll. A slap or a resting hand shakes the coupling and every
#               card wakes READY: in a slot where answers collided, the cards already heard since
#               the census began whose UIDs fall in that slot are told to keep quiet, and the slot
#               is asked again at once, so a card just laid is not lost among them.
#
# A census never relies on a card staying quiet, nor on one staying powered: only on answers.
# Runs on MicroPython and CPython: no typing, no dataclasses.

VPILE = "vpile"


class VicinityState:
    def __init__(self):
        self.census = False  # a census is under way
        self.census_at = 0  # when it started (the field went off)
        self.next_census = 0
        self.seen = set()  # UIDs that answered since the census started
        self.masks = []  # (mask, bits) of slots that collided, to ask again
        self.recovered = False  # the census's missing cards have been told Reset to Ready
        self.censuses = 0
        self.census_ms = 0  # total duration of the censuses since the last heartbeat
        self.census_max_ms = 0
        self.first = False  # the census's first inventory is still to run: every tag on the pile is READY for it
        self.top_answered = 0  # the newest card, in a census's first inventory: answered
        self.top_missed = 0  # or silent in a slot where nothing collided (companion hw stack --iso15693 reads these)


class VicinityPoller:
    """Polls the ISO 15693 piles of one ArrayFirmware (reporting through its _arrived and _missed)."""

    def __init__(self, firmware, miss_limit=3, census_gap_ms=250, masks_per_poll=2):
        self.firmware = firmware
        self.miss_limit = miss_limit
        self.census_gap_ms = census_gap_ms
        self.masks_per_poll = masks_per_poll

    def poll(self, index, ch):
        st = ch.vicinity
        now = self.firmware._clock_ms()
        if not st.census and now >= st.next_census:
            ch.reader.cycle_field()
            st.census, st.census_at, st.recovered, st.first = True, now, False, True
            st.seen = set()
            st.masks = []
        st.masks = []  # slots that collided in this poll's inventories (an older collision is heard again if it stands)
        heard, woken = self._inventory(index, ch, 0, 0)
        if woken:  # cards woken by a coupling change are quiet again: ask at once, a card just laid now answers alone
            st.masks = []
            heard, woken = self._inventory(index, ch, 0, 0)
        # A census resolves every collided slot at once (it is short, so a card slapped while it runs waits less).
        for _ in range(64 if st.census else self.masks_per_poll):
            if not st.masks:
                break
            mask, bits = st.masks.pop(0)
            self._inventory(index, ch, mask, bits)
        if st.census and not heard and not st.masks:
            self._census_done(index, ch)

    def _inventory(self, index, ch, mask, bits):
        """One 16-slot inventory: did anything answer, and how many woken cards were told to keep quiet."""
        st = ch.vicinity
        reader = ch.reader
        uids, collided = reader.inventory(mask, bits)
        if st.first and not bits:
            st.first = False
            if ch.known and int.from_bytes(ch.known[-1], "big") & 0x0F not in collided:
                if ch.known[-1] in uids:
                    st.top_answered += 1
                else:
                    st.top_missed += 1
        for uid in uids:
            ch.reads += 1
            st.seen.add(uid)
            self.firmware._arrived(index, ch, uid)
            reader.stay_quiet(uid)
        woken = 0
        for slot in collided:
            if bits + 4 > 64:
                continue
            longer = mask | (slot << bits)
            low = (1 << (bits + 4)) - 1
            for uid in ch.known:
                # Heard since the census began and answering again: woken by a coupling change. Quiet
                # it, so that what is left in the slot (a card just laid, cards the census still needs) is heard.
                if uid in st.seen and uid not in uids and int.from_bytes(uid, "big") & low == longer:
                    reader.stay_quiet(uid)
                    woken += 1
            st.masks.append((longer, bits + 4))
        return bool(uids or collided), woken

    def _census_done(self, index, ch):
        st = ch.vicinity
        missing = [uid for uid in ch.known if uid not in st.seen]
        if missing and not st.recovered:
            st.recovered = True
            for uid in missing:
                ch.reader.reset_to_ready(uid)
            return  # the next polls' inventories hear them, if they are there
        for uid in list(ch.known):
            if uid in st.seen:
                ch.misses.pop(uid, None)
                ch.missed_at.pop(uid, None)
            else:
                self.firmware._missed(index, ch, uid, self.miss_limit, st.census_at)
        now = self.firmware._clock_ms()
        took = now - st.census_at
        st.censuses += 1
        st.census_ms += took
        st.census_max_ms = max(st.census_max_ms, took)
        st.census = False
        st.next_census = now + self.census_gap_ms

    def timing(self, channels):
        """T figures: the censuses since the last heartbeat over every ISO 15693 pile, their mean and longest;
        per pile N, how often its newest card answered (topaN) or not (topmN) a census's first inventory."""
        count = total = longest = 0
        tops = []
        for index in range(len(channels)):
            st = getattr(channels[index], "vicinity", None)
            if st is None:
                continue
            if st.top_answered or st.top_missed:
                tops += [("topa%d" % index, str(st.top_answered)), ("topm%d" % index, str(st.top_missed))]
                st.top_answered = st.top_missed = 0
            count += st.censuses
            total += st.census_ms
            longest = max(longest, st.census_max_ms)
            st.censuses = st.census_ms = st.census_max_ms = 0
        if not count:
            return tops
        return [("censuses", str(count)), ("census_ms", "%.0f" % (total / count)), ("census_max", str(longest))] + tops
