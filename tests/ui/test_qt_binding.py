"""The Qt binding in use survives Python overrides that return a bool to Qt many times.

PySide6 6.12.0 over-releases that bool and the process aborts ("bool_dealloc"); the model's setData and
any event filter are such overrides, so a long session would crash. pyproject.toml excludes 6.12.
"""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QLabel

class Filter(QObject):
    def eventFilter(self, watched, event):
        return False

app = QApplication([])
label = QLabel("x")
spy = Filter()
label.installEventFilter(spy)
label.show()
for i in range(20000):
    label.setText(str(i))
    label.repaint()
print("survived")
"""


def test_bool_returning_overrides_do_not_crash_the_process() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "survived" in result.stdout
