"""The demo seed, where the CLI and ``reviewer-app --demo`` look for it."""

from .demo import DEMO_SEED, build_demo_dataset

__all__ = ["DEMO_SEED", "build_demo_dataset"]
