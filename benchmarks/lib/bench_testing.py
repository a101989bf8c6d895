"""What the benchmark harnesses' tests share (Python 3 standard library only)."""
from __future__ import annotations

import tempfile
import unittest
from pathlib import Path


class Files(unittest.TestCase):
    """A test case with a temporary folder and `write(name, text[, mode])`, which creates the file
    (and its folders) there and returns its path."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name: str, text: str, mode: int = 0o644) -> Path:
        p = self.dir / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        p.chmod(mode)
        return p
