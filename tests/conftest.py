"""The tests test the solver's source, not a compiled build the machine may hold
(`thirteen compile-solver`); test_solver_build compares the two. Set THIRTEEN_COMPILED_SOLVER to a
build directory to run the whole suite against that build instead.

The README's test command runs the tests on every core (pytest-xdist). A server's solver runs
in Linux's idle scheduling class, so it gets a core only when one is free: the modules that ask
a server's solver, or that take more than one core themselves, run one after another on one
worker (`SHARED`), and every other worker keeps to one core. Tests marked ``long`` (tens of
seconds each) are handed out first, so that no worker is left with one of them when the rest
are done."""

import os

import pytest

os.environ.setdefault("THIRTEEN_COMPILED_SOLVER", "off")

#: Modules that need a free core beside their own (a server's solver) or take several; a test
#: that uses a fixture named ``server`` joins them wherever it is.
SHARED = {"test_fair_play.py", "test_daily.py", "test_web_api.py", "test_web_bad_input.py",
          "test_web_limits.py", "test_web_restart.py", "test_page.py", "test_play.py",
          "test_cluster.py", "test_survey.py"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("long") is None)  # stable: else as found
    for item in items:
        if item.path.name in SHARED or "server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("shared"))
