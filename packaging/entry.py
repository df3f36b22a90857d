"""The bundle's entry point: the ``reviewer-app`` console script."""

import multiprocessing
import sys

from reviewer_app.__main__ import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # `server --workers` starts processes from the bundle
    sys.exit(main())
