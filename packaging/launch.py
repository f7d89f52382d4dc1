"""The frozen app's entry: the same as `gpuconfig`, with what a frozen Python needs first."""

import multiprocessing
import sys

from gpuconfig.__main__ import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
