"""Shared test settings: the Hypothesis profiles.

``ci`` (used when the environment variable CI is set, as CI services do) is
deterministic, so a run can be repeated exactly; ``dev`` (the default) draws new
examples each run and remembers failures in the local example database. Neither
has a deadline: the machine is shared and timings vary. Choose another profile
with ``HYPOTHESIS_PROFILE=<name>``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "dev",
    max_examples=60,
    deadline=None,
    suppress_health_check=_SLOW_OK,
)
settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=_SLOW_OK,
)


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if _ci() else "dev"))
