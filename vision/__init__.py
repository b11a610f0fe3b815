"""The overhead camera: frames -> table millimetres -> zones, cubes, pawns and cards -> VISION observations.

Entry point: :class:`vision.pipeline.VisionPipeline` (see docs/vision.md). Nothing here knows a
game's rules; detectors report what is on the table, the games decide what it means.
"""
