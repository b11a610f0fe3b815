"""Reading a laid set of cards back through the camera's own pipeline (``companion camera deck
--check``, and the read-back after teaching): which cards it reads right, which it is not sure of,
and which it misreads, the one thing that must not happen."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.core.seen import UNSEEN
from vision.deck_layout import DeckLayout, Place
from vision.frame import Frame, Image
from vision.pipeline import VisionPipeline
from vision.settings import VisionSettings

FRAME_GAP_S = 0.1


class _Pictures:
    """The pictures already read, as a frame source (the pipeline is handed them one by one)."""

    name = "pictures"

    def __init__(self, images: Sequence[Image]) -> None:
        self.images = list(images)
        self._k = 0

    def open(self) -> None:
        self._k = 0

    def read(self) -> Frame | None:
        if self._k >= len(self.images):
            return None
        self._k += 1
        return Frame(self.images[self._k - 1], (self._k - 1) * FRAME_GAP_S, self._k - 1)

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class PlaceRead:
    place: Place
    face: str | None
    """What the camera names there (None: not sure)."""
    why: str = ""
    """Why nothing was named: the camera could not see the place, or no card was found there."""

    @property
    def right(self) -> bool:
        return self.face == self.place.face

    @property
    def wrong(self) -> bool:
        return self.face is not None and self.face != self.place.face

    def line(self) -> str:
        p = self.place
        head = f"{p.number:>2} {p.face:<3}"
        if self.right:
            return f"{head} ok"
        if self.wrong:
            return f"{head} MISREAD as {self.face}"
        return f"{head} not sure ({self.why or 'its rank or its suit does not match one glyph clearly enough'})"


def read_laid(images: Sequence[Image], settings: VisionSettings, layout: DeckLayout) -> list[PlaceRead]:
    """Each place's card as the pipeline reads it in the last of ``images`` (the earlier ones
    calibrate the table and fill the face vote, as a running table's frames do)."""
    source = _Pictures(images)
    pipeline = VisionPipeline(source, layout.zones, settings)
    views: dict[str, dict[str, object]] = {}
    source.open()
    while (frame := source.read()) is not None:
        views = {str(o.payload["zone"]): dict(o.payload["state"]) for o in pipeline.detect(frame)}
    if not views:
        raise_calibration(pipeline)
    out = []
    for place in layout.places:
        state = views.get(place.zone.name, {})
        if UNSEEN in state:
            out.append(PlaceRead(place, None, f"the camera cannot see it: {state[UNSEEN]}"))
        elif not state.get("occupied"):
            out.append(PlaceRead(place, None, "no card found on its place"))
        else:
            card = state.get("card")
            out.append(PlaceRead(place, str(card) if card is not None else None))
    return out


def raise_calibration(pipeline: VisionPipeline) -> None:
    from companion.core.errors import ConfigError

    raise ConfigError(f"camera deck: the table could not be calibrated: {pipeline.health().message or 'are all four markers in view?'}")
