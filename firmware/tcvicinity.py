# Table Companion reader array: polling an ISO/IEC 15693 pile (a PN5180, firmware/pn5180.py).
#
# docs/hardware.md, "The ISO 15693 pile". The field stays on; every card heard is told to keep quiet
# (Stay Quiet), so the cards known to lie on the pile say nothing to an Inventory. Two things rest
# on different grounds:
#
#   arrivals    every poll a 1-slot Inventory (ISO/IEC 15693-3, Nb_slots_flag): silent when no
#               card is READY, one UID (a card just laid, or one that missed its Stay Quiet), or a
#               collision. A slap or a resting hand shakes the coupling and every card wakes READY:
#               the collision is sorted out a sixteenth of the pile at a time (the last 4 bits of a
#               UID), the sixteenths with the fewest known cards first; a sixteenth's known cards are
#               told to keep quiet, then it is asked alone, so a card just laid answers alone.
#               Arrivals are sent before any card heard is quieted.
#   departures  a census spread over polls: each known card in turn is asked by an addressed Read
#               Single Block, which a quiet card answers without waking (ISO/IEC 15693-3: the Quiet
#               state serves addressed requests), up to ``check_tries`` times, ``checks_per_poll``
#               cards a poll, the cards that missed the last census first. A card heard in any
#               inventory counts as answering. One that misses ``miss_limit`` censuses in a row has
#               departed, stamped with the first check it missed, and is told Reset to Ready: should
#               it be there after all, it answers the next inventory and arrives again. When every one
#               of at least LIFTED_MIN cards missed a census, the field goes off and on (every tag
#               wakes READY) and a 1-slot Inventory asks who is READY, twice: silence means the pile
#               was lifted whole, and each departs at once. A census starts ``census_gap_ms`` after the last, at once
#               after one in which a card missed.
#
# A census never relies on a card staying quiet, nor on the field waking it: only on its answers.
# Runs on MicroPython and CPython: no typing, no dataclasses.

VPILE = "vpile"
SORT_LIMIT = 48  # inventories sorting out one shake at most (25 cards need about 10)
LIFTED_MIN = 3  # every one of at least this many cards missed a census: is the whole pile gone?


class VicinityState:
    def __init__(self):
        self.order = []  # the census under way: known cards still to check
        self.census_at = 0  # when it started
        self.checked = 0  # cards checked in it so far
        self.missing = []  # cards that missed it: the next census starts at once
        self.next_census = 0
        self.censuses = 0
        self.census_ms = 0  # total duration of the censuses since the last heartbeat
        self.census_max_ms = 0
        self.shakes = 0  # polls whose 1-slot inventory collided (cards woken together)
        self.top_answered = 0  # the newest card's census checks: answered
        self.top_missed = 0  # or silent (companion hw stack --iso15693 reads these)


class VicinityPoller:
    """Polls the ISO 15693 piles of one ArrayFirmware (reporting through its _arrived and _missed)."""

    def __init__(self, firmware, miss_limit=4, check_tries=3, checks_per_poll=4, census_gap_ms=250, max_new=8):
        self.firmware = firmware
        self.miss_limit = miss_limit
        self.check_tries = check_tries
        self.checks_per_poll = checks_per_poll
        self.census_gap_ms = census_gap_ms
        self.max_new = max_new

    def poll(self, index, ch):
        if self._listen(index, ch):
            return  # the pile was shaken: every card answered an inventory, the census waits a poll
        self._census(index, ch)

    # -- arrivals ---------------------------------------------------------------------------------

    def _listen(self, index, ch):
        """Cards READY now (just laid, or woken): True if they collided and were sorted out, a sixteenth at a time."""
        sorted_out = 0
        for _ in range(self.max_new):
            uids, collided = ch.reader.inventory(0, 0, 1)
            if collided:
                if sorted_out == 2:
                    break  # the next poll goes on
                sorted_out += 1
                ch.vicinity.shakes += 1
                self._sort_out(index, ch)
            elif uids:
                self._heard(index, ch, uids)
            else:
                break
        return sorted_out > 0

    def _heard(self, index, ch, uids):
        for uid in uids:  # arrivals first: a Stay Quiet takes a few milliseconds each
            self.firmware._arrived(index, ch, uid)
        for uid in uids:
            ch.reader.stay_quiet(uid)

    def _sort_out(self, index, ch):
        """Cards woken together: each sixteenth of the pile (the last 4 bits of a UID) asked alone by a
        1-slot Inventory masked to it, after its known cards are told to keep quiet; the sixteenths
        with the fewest known cards first, so a card just laid is heard soonest. A sixteenth where
        answers still collide (cards laid together, or a known card that missed its Stay Quiet) is
        split by a 16-slot Inventory, 4 bits longer; one that answered is asked once more (a card
        heard may have captured the slot from another)."""
        reader = ch.reader
        # [mask, mask bits, known cards still to be told to keep quiet], bucketed once: the Pico's own time counts too.
        slots = [[nibble, 4, []] for nibble in range(16)]
        for uid in ch.known:
            slots[uid[-1] & 0x0F][2].append(uid)  # the UID's last 4 bits: the end of its last byte
        for _ in range(SORT_LIMIT):
            if not slots:
                break
            pick = 0
            for i in range(1, len(slots)):
                if len(slots[i][2]) < len(slots[pick][2]):
                    pick = i
            mask, bits, members = slots.pop(pick)
            for uid in members:
                reader.stay_quiet(uid)
            got, collided = reader.inventory(mask, bits, 1)
            if got:
                self._heard(index, ch, got)
                slots.append([mask, bits, []])
            elif collided and bits + 4 <= 64:
                got, split = reader.inventory(mask, bits)
                self._heard(index, ch, got)
                slots += [[mask | (slot << bits), bits + 4, []] for slot in split]

    # -- departures -------------------------------------------------------------------------------

    def _census(self, index, ch):
        st = ch.vicinity
        now = self.firmware._clock_ms()
        if not st.order:
            if now < st.next_census or not ch.known:
                return
            # The cards that missed the last census first: a card gone is found gone sooner.
            st.order = [uid for uid in ch.known if uid in ch.misses] + [uid for uid in ch.known if uid not in ch.misses]
            st.census_at, st.checked, st.missing = now, 0, []
        for _ in range(self.checks_per_poll):
            if not st.order:
                break
            uid = st.order.pop(0)
            if uid not in ch.known:
                continue
            st.checked += 1
            if self._check(ch, uid, uid == ch.known[-1]):
                ch.reads += 1
                ch.misses.pop(uid, None)
                ch.missed_at.pop(uid, None)
            else:
                st.missing.append(uid)
                if uid not in ch.misses:
                    ch.missed_at[uid] = now  # a departure is stamped with the first check it missed
        if st.order:
            return
        if len(st.missing) >= LIFTED_MIN and len(st.missing) == st.checked and self._silent(ch):
            for uid in st.missing:  # the whole pile lifted: nothing in the field answers
                self.firmware._missed(index, ch, uid, 1, ch.missed_at.get(uid, now))
        else:
            for uid in st.missing:
                self.firmware._missed(index, ch, uid, self.miss_limit, ch.missed_at.get(uid, now))
                if uid not in ch.known:
                    ch.reader.reset_to_ready(uid)  # departed: were it there after all, the next inventory hears it
        now = self.firmware._clock_ms()
        took = now - st.census_at
        st.censuses += 1
        st.census_ms += took
        st.census_max_ms = max(st.census_max_ms, took)
        st.next_census = now if st.missing else now + self.census_gap_ms

    def _check(self, ch, uid, newest):
        """Up to ``check_tries`` addressed requests until ``uid`` answers (the newest card's first one is counted)."""
        for attempt in range(self.check_tries):
            answered = ch.reader.check(uid)
            if newest and not attempt:
                if answered:
                    ch.vicinity.top_answered += 1
                else:
                    ch.vicinity.top_missed += 1
            if answered:
                return True
        return False

    def _silent(self, ch):
        """Every card missed the census: is the field empty? Twice, the field goes off and on (every tag
        loses power and wakes READY: a quiet tag serves only addressed requests, so nothing less wakes
        it) and a 1-slot Inventory asks who is READY; any answer (the cards woken are sorted out next poll) says no."""
        for _ in range(2):
            ch.reader.cycle_field()
            uids, collided = ch.reader.inventory(0, 0, 1)
            if uids or collided:
                return False
        return True

    def timing(self, channels):
        """T figures: the censuses since the last heartbeat over every ISO 15693 pile, their mean and longest;
        per pile N, how often its newest card answered (topaN) or not (topmN) its census checks."""
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
