"""Shared test settings: hypothesis profile sized for CI on two cores."""

from hypothesis import settings

settings.register_profile("default", max_examples=200, deadline=None)
settings.load_profile("default")
