"""A synthetic table renderer with exact ground truth, for the tests and bench/vision.py."""
