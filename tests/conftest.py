"""The tests test the solver's source, not a compiled build the machine may hold
(`thirteen compile-solver`); test_solver compares the two. Set THIRTEEN_COMPILED_SOLVER to a
build directory to run the whole suite against that build instead."""

import os

os.environ.setdefault("THIRTEEN_COMPILED_SOLVER", "off")
