"""Version order: the one definition of which release comes before which.

Versions are compared as numbers (1.10 after 1.9), pre-releases come before their release
(1.8rc1 < 1.8) and anything else after it (1.8 < 1.8.post1 < 1.8.1). Two spellings of one
version are the same release: 1.8-rc1 is 1.8rc1, 1.01 is 1.1, 1.8.0 is 1.8.
"""

from __future__ import annotations

import re

# Pre-release tags, in the order they come before a release (as PEP 440 orders them).
_PRE_RELEASE = {"dev": 0, "a": 1, "alpha": 1, "b": 2, "beta": 2, "c": 3, "pre": 3, "preview": 3, "rc": 3}
_FINAL = 4  # a release itself: after its pre-releases, before anything appended to it
_PART = re.compile(r"([a-z]+|[0-9]+)")


def version_key(version: str) -> tuple:
    """A sort key for release versions.

    >>> sorted(["1.10", "1.8.1", "1.8", "0.2", "1.8rc1", "1.8-beta", "1.8.dev1"], key=version_key)
    ['0.2', '1.8.dev1', '1.8-beta', '1.8rc1', '1.8', '1.8.1', '1.10']
    >>> version_key("1.8-rc1") == version_key("1.8rc1"), version_key("1.01") == version_key("1.1")
    (True, True)
    >>> version_key("1.8-rc1") == version_key("1.8-beta"), version_key("1.8-1") == version_key("1.8-2")
    (False, False)
    >>> version_key("latest") < version_key("0.1") < version_key("1.7") < version_key("1.7\\n::error::x")
    True
    """
    # Any text has a key, so that an index fetched from anywhere can be ordered against a version
    # asked for: text after the numbers is a tag (newlines included), text without numbers sorts
    # before every numbered version.
    number, rest = re.fullmatch(r"([0-9]+(?:\.[0-9]+)*)?(.*)", version.lower(), re.DOTALL).groups()
    release = [int(part) for part in number.split(".")] if number else []
    while len(release) > 1 and release[-1] == 0:  # 1.8.0 is 1.8
        release.pop()
    parts = _PART.findall(rest)
    if not parts:
        return (tuple(release), _FINAL, "", 0, ())
    if parts[0].isdigit():  # 1.8-1: a post-release numbered 1
        parts.insert(0, "post")
    tag, *more = parts
    order = _PRE_RELEASE.get(tag, _FINAL + 1)
    count = int(more.pop(0)) if more and more[0].isdigit() else 0
    # a tag of no known meaning ("lts") keeps its name, so that two such tags stay two releases
    name = "" if tag in _PRE_RELEASE else tag
    return (tuple(release), order, name, count, tuple(more))


# What `check --from/--to` accepts as a version: numbers, then tags and numbers (1.8rc1, 1.8-rc1,
# 1.8.post1, 2.1.0+cu118); an optional leading v, as pip accepts it.
_VERSION_TEXT = re.compile(r"v?[0-9]+(?:\.[0-9]+)*(?:[-_.+]?[a-z0-9]+)*", re.IGNORECASE)


def is_version(text: str) -> bool:
    """Whether `text` reads as a version.

    >>> [is_version(text) for text in ("1.4.0", "v2.1", "1.8rc1", "2.1.0+cu118", "latest", "1.4;x", "")]
    [True, True, True, True, False, False, False]
    """
    return _VERSION_TEXT.fullmatch(text) is not None


def release_as_of(version: str, releases: list[str]) -> str | None:
    """The latest of `releases` at or before `version` (a version `is_version` accepts): the
    state of things as of that version. None when `version` comes before all of them.

    >>> releases = ["0.2", "1.4", "1.5", "1.7"]
    >>> [release_as_of(v, releases) for v in ("1.4.0", "1.6", "2.1", "0.1", "v1.5")]
    ['1.4', '1.5', '1.7', None, '1.5']
    """
    key = version_key(version.removeprefix("v").removeprefix("V"))
    earlier = [release for release in releases if version_key(release) <= key]
    return max(earlier, key=version_key, default=None)
