"""The examples in the package's docstrings are true: each module with `>>>` examples passes
its doctests (version order, dates, CJK detection and width, the URL scheme)."""

from __future__ import annotations

import doctest
import importlib

import pytest

from helpers import ROOT

PACKAGE = ROOT / "scripts" / "releasekb"
# dotted below releasekb: 'common.versions'
WITH_EXAMPLES = sorted(
    ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
    for path in PACKAGE.rglob("*.py")
    if ">>> " in path.read_text(encoding="utf-8")
)


def test_the_foundation_modules_show_their_rules_by_example():
    assert {"common.versions", "common.dates", "common.cjk", "kb.urls"} <= set(WITH_EXAMPLES)


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples_hold(name):
    module = importlib.import_module(f"releasekb.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"releasekb.{name} has no example doctest runs"
    assert result.failed == 0, f"{result.failed} of the examples of releasekb.{name} fail (printed above)"
