"""A camera frame: the picture and the moment it was taken."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

Image: TypeAlias = npt.NDArray[np.uint8]
"""A BGR picture, height x width x 3 (OpenCV's order), or a single-channel mask."""

FloatArray: TypeAlias = npt.NDArray[np.floating[Any]]


@dataclass(frozen=True, eq=False)
class Frame:
    """One picture from a source. ``t`` is the table time in seconds when it was taken."""

    image: Image
    t: float
    index: int = 0

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return int(self.image.shape[1]), int(self.image.shape[0])
